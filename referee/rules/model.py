"""Base for every file-backed model: unknown keys are errors, values are never silently coerced."""

from pydantic import BaseModel, ConfigDict


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
