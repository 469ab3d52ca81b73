"""Campaigns: their file and totals, and a campaign battle's start and end."""
