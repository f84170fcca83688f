"""Stage 2 of the dice reader: a small CNN that reads a die crop's pips (1-6) and body colour.

Recipe: ``python -m models.die_reader.make_dataset``, ``.train`` (in the ``train`` environment).
Crops come from ``vision.crops.crop_die``, the same function inference uses.
"""
