int second(void) { return 2; }
