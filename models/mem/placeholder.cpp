// Placeholder until the memory blocks land.
