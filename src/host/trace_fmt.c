/*
 * trace_fmt.c -- the readers of the trace formats other than fio's iolog
 * (trace.h lists them).
 */
#include "host/trace_int.h"

#include "base/util.h"

const trace_line_fn ssd_trace_line_fns[SSD_TRACE_NFMT];

int ssd_trace_blktrace_next(struct ssd_trace *t, struct ssd_trace_rec *r)
{
	(void)r;
	return trace_fail(t, "blktrace files are not read yet");
}
