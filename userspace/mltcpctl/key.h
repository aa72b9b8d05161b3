/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mltcpctl: the tie-break key file of `set tiebreak-key FILE` and
 * `bpf load --tiebreak-key FILE`: 32 hex digits (128 bits), optionally a
 * newline.
 */
#ifndef MLTCPCTL_KEY_H
#define MLTCPCTL_KEY_H

#include <stddef.h>
#include <stdint.h>

#include <linux/mltcp.h>

/**
 * mltcpctl_parse_tiebreak_key() - a key file's text as the key
 * @text: the text, @len bytes, not NUL-terminated
 * @len: its length
 * @key: output, MLTCP_TIEBREAK_KEY_LEN bytes, the first two hex digits the
 *	first byte; written only on success
 * @err: on failure, why (the text itself is never quoted)
 * @errlen: size of @err
 *
 * Return: 0 or -1.
 */
int mltcpctl_parse_tiebreak_key(const char *text, size_t len,
				uint8_t key[MLTCP_TIEBREAK_KEY_LEN], char *err, size_t errlen);

/**
 * mltcpctl_read_tiebreak_key() - read and parse a key file
 * @path: the file, "-" for standard input
 * @key: output, as mltcpctl_parse_tiebreak_key()
 * @err: on failure, why, starting with the file's name
 * @errlen: size of @err
 *
 * A regular file that its group or others may read or write is refused:
 * whoever reads the key can compute every connection's tie-break and pick
 * ports that get a head start.  Standard input is read as it comes.
 *
 * Return: 0 or -1.
 */
int mltcpctl_read_tiebreak_key(const char *path, uint8_t key[MLTCP_TIEBREAK_KEY_LEN],
			       char *err, size_t errlen);

#endif /* MLTCPCTL_KEY_H */
