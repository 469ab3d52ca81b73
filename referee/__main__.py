import sys

from referee.cli.main import main

sys.exit(main())
