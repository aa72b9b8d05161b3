// SPDX-License-Identifier: GPL-2.0
/* One cmocka group, hence one TAP plan, for all mltcp-bench unit tests. */
#include <stdlib.h>
#include <string.h>

#include "unit_tests.h"

int main(void)
{
	size_t n = metrics_ntests + profile_ntests + records_ntests + verdict_ntests;
	struct CMUnitTest *all = calloc(n, sizeof(*all));
	int ret;

	if (!all)
		return 1;
	memcpy(all, metrics_tests, metrics_ntests * sizeof(*all));
	memcpy(all + metrics_ntests, profile_tests, profile_ntests * sizeof(*all));
	memcpy(all + metrics_ntests + profile_ntests, records_tests, records_ntests * sizeof(*all));
	memcpy(all + metrics_ntests + profile_ntests + records_ntests, verdict_tests,
	       verdict_ntests * sizeof(*all));
	ret = _cmocka_run_group_tests("mltcp-bench", all, n, NULL, NULL);
	free(all);
	return ret ? 1 : 0;
}
