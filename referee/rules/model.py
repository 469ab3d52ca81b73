"""Base for every file-backed model: unknown keys are errors, values are never silently coerced."""

from pydantic import BaseModel, ConfigDict


class Strict(BaseModel):
    # strict: "2" is not a number and true is not 1; a whole number is still a valid float. No NaN or infinity:
    # a position, size or angle that is not a finite number is an error, never a crash deep inside the geometry.
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, strict=True, allow_inf_nan=False,
                              defer_build=True)
