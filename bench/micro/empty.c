/*===- empty.c - an empty main: the runtime's fixed start-up and exit cost -===*/
int main(void) { return 0; }
