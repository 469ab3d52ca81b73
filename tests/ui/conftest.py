import pytest


@pytest.fixture
def fresh(app):
    """The test module's window with an empty scene stack, emptied again afterwards (``app`` is the module's own)."""
    while len(app.stack):
        app.stack.pop()
    app.running = True
    yield app
    while len(app.stack):
        app.stack.pop()
