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
 * characters (and DEL) as \n, \t, \r or \xHH, and so each byte that is
 * not part of a valid UTF-8 sequence (a damaged profile's path). */
void hpf_error(const char *kind, const char *msg);

/* The length (2 to 4) of the valid UTF-8 sequence of a non-ASCII
 * character at p, which a NUL or any other byte ends; 0 if the bytes at p
 * are not one (a stray continuation byte, a truncated or overlong
 * sequence, a surrogate, past U+10FFFF). */
unsigned hpf_utf8_seq(const unsigned char *p);

#ifdef __cplusplus
}
#endif

#endif
