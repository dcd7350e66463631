"""The web pages: what people at a club see on a wall screen and on their phones."""
