// SPDX-License-Identifier: GPL-2.0
/*
 * mltcpctl: the tie-break key file (key.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "key.h"

/* The hex digits of a key; more are read only to tell a long file apart. */
#define KEY_HEX		(2 * MLTCP_TIEBREAK_KEY_LEN)

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int mltcpctl_parse_tiebreak_key(const char *text, size_t len,
				uint8_t key[MLTCP_TIEBREAK_KEY_LEN], char *err, size_t errlen)
{
	uint8_t k[MLTCP_TIEBREAK_KEY_LEN];
	size_t i;

	if (len && text[len - 1] == '\n')
		len--;
	for (i = 0; i < len; i++) {
		if (hex_value(text[i]) < 0) {
			snprintf(err, errlen,
				 "not a hex digit at byte %zu: a key is %d hex digits (128 bits), optionally a newline",
				 i + 1, KEY_HEX);
			return -1;
		}
	}
	if (len != KEY_HEX) {
		snprintf(err, errlen, "%s: %zu hex digits, a key is %d (128 bits)",
			 len < KEY_HEX ? "too short" : "too long", len, KEY_HEX);
		return -1;
	}
	for (i = 0; i < MLTCP_TIEBREAK_KEY_LEN; i++)
		k[i] = (uint8_t)(hex_value(text[2 * i]) << 4 | hex_value(text[2 * i + 1]));
	memcpy(key, k, sizeof(k));
	explicit_bzero(k, sizeof(k));
	return 0;
}

int mltcpctl_read_tiebreak_key(const char *path, uint8_t key[MLTCP_TIEBREAK_KEY_LEN],
			       char *err, size_t errlen)
{
	bool is_stdin = !strcmp(path, "-");
	const char *name = is_stdin ? "stdin" : path;
	char buf[2 * KEY_HEX + 2], why[160];
	size_t len = 0;
	struct stat st;
	ssize_t n;
	int fd, ret = -1;

	fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st)) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		goto out;
	}
	if (!is_stdin && S_ISREG(st.st_mode) && (st.st_mode & (S_IRWXG | S_IRWXO))) {
		snprintf(err, errlen,
			 "%s: group or others may read or write it (mode %04o): whoever reads the key can predict every connection's tie-break and pick ports that draw a head start; chmod 600 it",
			 name, (unsigned int)(st.st_mode & 07777));
		goto out;
	}
	/* all of a short file; one byte past a key and a newline tells a long one */
	while (len < sizeof(buf)) {
		n = read(fd, buf + len, sizeof(buf) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "%s: %s", name, strerror(errno));
			goto out;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	if (len == sizeof(buf)) {
		snprintf(err, errlen, "%s: too long: a key is %d hex digits (128 bits), optionally a newline",
			 name, KEY_HEX);
		goto out;
	}
	if (mltcpctl_parse_tiebreak_key(buf, len, key, why, sizeof(why))) {
		snprintf(err, errlen, "%s: %s", name, why);
		goto out;
	}
	ret = 0;
out:
	explicit_bzero(buf, sizeof(buf));
	if (!is_stdin)
		close(fd);
	return ret;
}
