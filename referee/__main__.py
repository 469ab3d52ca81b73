from referee.cli.main import entry

entry()
