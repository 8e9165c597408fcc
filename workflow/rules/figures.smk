# figures stage: rules appending their final outputs to ALL_TARGETS.
