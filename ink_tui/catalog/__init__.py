"""Many sessions: listing, titles, resolving a SESSION argument. Pure: no Textual."""
