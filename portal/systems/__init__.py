"""Systems: the arrays measured, found by name, listed with their figures, and the labels of a configuration."""
