"""The battle: its state, what each seat may see of it, the engine that plays it, its records and saves, the
players who are not people, campaigns and reports, one sub-package each, each importing only from those before it
(``docs/architecture.md``, "The battle's parts")."""
