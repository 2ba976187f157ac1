/*
 * test_scenario.c -- scenario parameters (src/methods/scenario.c): the
 * declared range and wholeness of a number, checked before a scenario
 * runs, with a message naming the parameter; every registered
 * scenario's defaults within what its table declares.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "methods/scenario.h"
#include "t.h"
#include "base/util.h"

static const struct ssd_scn_param tparams[] = {
	{.name = "qd", .def = "8", .unit = "number", .help = "",
	 .whole = 1, .lo = 1, .hi = 256},
	{.name = "pct", .def = "5", .unit = "percent", .help = "",
	 .whole = 1, .lo = 0, .hi = 100},
	{.name = "share", .def = "0.5", .unit = "fraction", .help = "",
	 .lo = 0, .hi = 1, .open = SSD_SCN_ABOVE_LO},
	{.name = "drop", .def = "0.5", .unit = "number", .help = "",
	 .lo = 0, .hi = 1, .open = SSD_SCN_ABOVE_LO | SSD_SCN_BELOW_HI},
	{.name = "free", .def = "1", .unit = "number", .help = ""},
	{.name = "n", .def = "1", .unit = "number", .help = "", .whole = 1},
	{.name = "size", .def = "4k", .unit = "size", .help = ""},
	{.name = NULL},
};

static int ran;

static int trun(struct ssd_scn *s)
{
	ran = 1;
	/* what a scenario reads: exact integers, the fraction as given */
	if (ssd_scn_int(s, "qd") != 256 || ssd_scn_int(s, "pct") != 5 ||
	    ssd_scn_num(s, "share") != 1)
		return SSD_EINVAL;
	return 0;
}

static const struct ssd_scenario tsc = {
	.name = "t-scn", .summary = "", .params = tparams, .run = trun,
};

/* check value v of tparams' NAME; *err gets the message */
static int chk(const char *name, const char *v, char *err, size_t len)
{
	err[0] = 0;
	for (int i = 0; tparams[i].name; i++)
		if (!strcmp(tparams[i].name, name))
			return ssd_scn_param_check(&tsc, &tparams[i], v, 1 << 30,
						   err, len);
	return -1000;
}

TEST(scn_param_range_ends)
{
	char err[512];
	CHECK(chk("qd", "1", err, sizeof err) == 0);
	CHECK(chk("qd", "256", err, sizeof err) == 0);
	CHECK(chk("qd", "1e2", err, sizeof err) == 0);
	CHECK(chk("qd", "0", err, sizeof err) == SSD_ERANGE);
	CHECK(chk("qd", "257", err, sizeof err) == SSD_ERANGE);
	CHECK(chk("pct", "0", err, sizeof err) == 0);
	CHECK(chk("pct", "100", err, sizeof err) == 0);
	CHECK(chk("pct", "101", err, sizeof err) == SSD_ERANGE);
	CHECK(chk("pct", "-1", err, sizeof err) == SSD_ERANGE);
	/* excluded ends */
	CHECK(chk("share", "1", err, sizeof err) == 0);
	CHECK(chk("share", "0.001", err, sizeof err) == 0);
	CHECK(chk("share", "0", err, sizeof err) == SSD_ERANGE);
	CHECKF(strstr(err, "(more than 0, up to 1)"), "%s", err);
	CHECK(chk("drop", "1", err, sizeof err) == SSD_ERANGE);
	CHECKF(strstr(err, "(more than 0, less than 1)"), "%s", err);
	CHECK(chk("drop", "0.999", err, sizeof err) == 0);
	/* a parameter that declares nothing takes any number, as before */
	CHECK(chk("free", "-1e300", err, sizeof err) == 0);
	CHECK(chk("free", "0.5", err, sizeof err) == 0);
}

/* The user trial's values: 2^32 + 8 was taken as 8 (the cast wrapped),
 * -1 as 0 and 1.5 as 1. */
TEST(scn_param_out_of_range_named)
{
	char err[512];
	CHECK(chk("qd", "4294967304", err, sizeof err) == SSD_ERANGE);
	CHECKF(!strcmp(err, "scenario t-scn: parameter 'qd': 4294967304 is out "
		       "of range (1 to 256)"), "%s", err);
	CHECK(chk("pct", "-1", err, sizeof err) == SSD_ERANGE);
	CHECKF(!strcmp(err, "scenario t-scn: parameter 'pct': -1 is out of range "
		       "(0 to 100)"), "%s", err);
}

TEST(scn_param_whole)
{
	char err[512];
	CHECK(chk("qd", "1.5", err, sizeof err) == SSD_EPARSE);
	CHECKF(!strcmp(err, "scenario t-scn: parameter 'qd': '1.5' is not a "
		       "whole number"), "%s", err);
	CHECK(chk("qd", "1.7", err, sizeof err) == SSD_EPARSE);
	CHECK(chk("qd", "8.0", err, sizeof err) == 0);
	/* whole without a range: any integer */
	CHECK(chk("n", "-3", err, sizeof err) == 0);
	CHECK(chk("n", "0.25", err, sizeof err) == SSD_EPARSE);
	CHECKF(strstr(err, "'n'"), "%s", err);
}

TEST(scn_param_not_finite)
{
	char err[512];
	const char *bad[] = {"nan", "NaN", "inf", "-inf", "infinity", "1e999"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		CHECK(chk("qd", bad[i], err, sizeof err) < 0);
		CHECKF(strstr(err, "parameter 'qd'") && strstr(err, "not a finite"),
		       "%s: %s", bad[i], err);
		/* declared or not, no parameter takes them */
		CHECK(chk("free", bad[i], err, sizeof err) < 0);
	}
	CHECK(chk("qd", "8x", err, sizeof err) == SSD_EPARSE);
	CHECKF(strstr(err, "'8x' is not a number"), "%s", err);
	CHECK(chk("size", "4q", err, sizeof err) == SSD_EPARSE);
}

TEST(scn_param_range_text)
{
	char buf[96];
	CHECK(!strcmp(ssd_scn_param_range(&tparams[0], buf, sizeof buf),
		      "whole 1 to 256"));
	CHECK(!strcmp(ssd_scn_param_range(&tparams[2], buf, sizeof buf),
		      "more than 0, up to 1"));
	CHECK(!strcmp(ssd_scn_param_range(&tparams[4], buf, sizeof buf), ""));
	CHECK(!strcmp(ssd_scn_param_range(&tparams[5], buf, sizeof buf), "whole"));
}

/* A bad value stops the run before the scenario starts (and before the
 * output directory is made); good ones reach it exactly. */
TEST(scn_param_checked_before_run)
{
	struct ssd_config c;
	char err[512];
	ssd_config_defaults(&c);
	CHECK(ssd_config_finish(&c, err, sizeof err) == 0);
	FILE *out = fopen("/dev/null", "w");
	CHECK(out);
	const char *bad[] = {"qd=4294967304"};
	ran = 0;
	int rc = ssd_scenario_run(&tsc, &c, "/nonexistent/t-scn", NULL, bad, 1,
				  1, out, NULL, err, sizeof err);
	CHECK(rc == SSD_ERANGE && !ran);
	CHECKF(strstr(err, "parameter 'qd'"), "%s", err);
	char dir[] = "/tmp/t-scn-XXXXXX";
	CHECK(mkdtemp(dir));
	const char *good[] = {"qd=256", "share=1"};
	rc = ssd_scenario_run(&tsc, &c, dir, NULL, good, 2, 1, out, NULL, err, sizeof err);
	fclose(out);
	char path[64];
	snprintf(path, sizeof path, "%s/result.json", dir);
	remove(path);
	remove(dir);
	CHECKF(rc == 0 && ran, "%d %s", rc, err);
}

/* Every scenario: its defaults pass its own declarations, every range is
 * a range, and a whole parameter's range holds only exact integers. */
TEST(scn_tables_consistent)
{
	char err[512];
	for (int i = 0; ssd_scenarios[i]; i++) {
		const struct ssd_scenario *sc = ssd_scenarios[i];
		for (int k = 0; sc->params && sc->params[k].name; k++) {
			const struct ssd_scn_param *p = &sc->params[k];
			int rc = ssd_scn_param_check(sc, p, p->def, 1ull << 40, err,
						     sizeof err);
			CHECKF(rc == 0, "%s", err);
			CHECKF(p->lo <= p->hi, "%s %s", sc->name, p->name);
			if (p->whole && p->lo < p->hi)
				CHECKF(fabs(p->lo) <= 0x1p53 && fabs(p->hi) <= 0x1p53,
				       "%s %s", sc->name, p->name);
			CHECKF(!p->whole || p->lo < p->hi, "%s %s: whole without a "
			       "range", sc->name, p->name);
		}
	}
}
