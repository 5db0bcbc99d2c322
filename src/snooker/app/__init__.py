"""The command-line programs; each subcommand lives in its own module here."""
