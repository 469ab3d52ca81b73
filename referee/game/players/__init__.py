"""Who plays a side without a person: the computer, random legal play, the seats ``selfplay`` and the
benchmarks use. Each is handed a seat's view and its legal actions."""
