"""The pydantic base of every model that checks a file: unknown keys are errors, values are never silently coerced.

The rules' values (``model.py``) are checked through models made on this base; the models that only ever hold a
file's data (cards, campaigns, a battle's record) are written on it directly.
"""

from pydantic import BaseModel, ConfigDict


class StrictModel(BaseModel):
    # strict: "2" is not a number and true is not 1; a whole number is still a valid float. No NaN or infinity:
    # a position, size or angle that is not a finite number is an error, never a crash deep inside the geometry.
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, strict=True, allow_inf_nan=False,
                              defer_build=True)
