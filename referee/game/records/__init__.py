"""Records and saves: the action record and its replay, the autosave and its journal, sealing each
side's secrets at rest. Reads the engine."""
