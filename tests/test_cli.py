"""The console script dispatches to subcommands and rejects unknown ones."""

import pytest

from snooker.cli import main


def test_unknown_command_is_refused(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["no-such-command"])
    assert exc.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
