"""Subcommands of the ``knight`` console command (see :mod:`knight.cli`)."""
