/*===- heapprof_message.h - one line of error or warning ----------------===
 *
 * Part of heapprof.  How every command, `heapprof run` included, prints an
 * error or a warning: one line, whatever file or program name it quotes.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_MESSAGE_H
#define HEAPPROF_MESSAGE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Writes "heapprof: KIND: MSG\n" to stderr in one write, MSG's control
 * characters (and DEL) as \n, \t, \r or \xHH. */
void hpf_error(const char *kind, const char *msg);

#ifdef __cplusplus
}
#endif

#endif
