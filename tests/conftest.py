import os
import signal

import pytest

# The Ctrl-C tests send SIGINT to the commands they start. A shell starts background jobs
# with SIGINT ignored, and an ignored signal stays ignored in every child, so a test run
# started that way would see its commands ignore the signal. Handled signals are reset to
# their default in a child, so the commands take SIGINT as from a terminal.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="session")
def repo():
    return REPO
