"""The table read from a photo: printed fiducial markers, found by OpenCV, turned into table inches.

``plan`` says which marker is which piece (from the battle's own ids), ``sheet`` prints them, ``photo`` reads a photo
into each piece's centre, facing or outline with a confidence, and ``differences`` compares that reading with the last
known table and offers each change as the active unit's Move or as a referee's correction. Nothing here draws on the
screen or changes a battle: the players accept what they agree with.
"""
