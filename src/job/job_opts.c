/*
 * job_opts.c -- the option table of fio job files, as data.
 *
 * One row per option ssdlab knows (struct jopt, job_int.h): the options
 * ssdlab implements, the ones it accepts because they only choose the
 * host side of a real fio run (engine, file names, page cache: OT_NOEFFECT,
 * grouped by what they concern, each group with its reason), and the
 * well-known fio options it refuses with a reason (OT_UNSUP).  A row
 * names its field in struct ssd_job, its type and range, or the value
 * reader that takes it (job_fn_* and job_ne_*, job_value.c), and carries
 * the text the user sees: accepted values, default and meaning.
 *
 * The same rows drive the parser (job_parse.c applies a key=value
 * through its row), its messages ("accepted: ..."), the report's list of
 * options without effect (ssd_job_noeffect), docs/jobfiles.md and the
 * fuzz dictionary (job_doc.c: `ssdlab job doc`, `ssdlab job doc
 * --format=dict`), and through them the manual page (tools/man.py) and
 * fuzz/jobfile.dict (tools/fuzz-dicts.sh).  Adding an option is adding a
 * row here (and, if its value needs more than a type, its reader in
 * job_value.c), then `make docs` and tools/fuzz-dicts.sh.
 */
#include "job/job_int.h"

#include <string.h>

/* Why the options of each group are accepted without effect, and the
 * group's heading in docs/jobfiles.md. */
const struct job_group job_ne_groups[NEG_N] = {
	[NEG_ENGINE] = {"The I/O engine and its options",
		"ssdlab is the engine: the simulated drive takes the I/Os "
		"directly, so the choice of a real engine and the options of "
		"fio's engines (io_uring, libaio, sg, network, RBD, HTTP, "
		"NFS, libblkio, xNVMe, exec, cpuio...) have nothing to act "
		"on.  Command priorities (cmdprio) are not modelled by the "
		"drive: every command is served as it comes."},
	[NEG_CACHE] = {"The host page cache",
		"The page cache belongs to the machine, not to the job: with "
		"page_cache set in the drive file (docs/stack.md), direct=0 "
		"jobs (fio's default) read and write through it and direct=1 "
		"jobs bypass it; without one every I/O reaches the drive as "
		"with direct=1, and a job with direct=0 or buffered=1 says so "
		"in its report.  The cache's other knobs (invalidate, "
		"pre_read, fadvise) have no effect."},
	[NEG_FILES] = {"Files and the file system",
		"The target is the simulated drive itself, not a file in a "
		"file system: there is nothing to create, lay out, lock, "
		"allocate or unlink."},
	[NEG_CPU] = {"Host CPUs, scheduling and processes",
		"The host's CPUs, processes, priorities, NUMA nodes and "
		"cgroups are not modelled: I/O is submitted the moment a job "
		"is ready, at no CPU cost."},
	[NEG_CLOCK] = {"The clock and the cost of statistics",
		"The simulator's clock is exact and reading it costs nothing, "
		"so the knobs that trade accuracy for CPU time have nothing "
		"to save; every latency is still measured and reported."},
	[NEG_BUFFERS] = {"What the data buffers hold",
		"The simulated drive stores no data and neither compresses "
		"nor deduplicates it, so what the buffers hold does not "
		"change its timing."},
	[NEG_MEMORY] = {"Host memory",
		"Host memory for I/O buffers is not modelled."},
	[NEG_TRACE] = {"Reading a replayed trace",
		"A replayed trace (read_iolog) is always read a line at a time, "
		"in constant memory, which read_iolog_chunked asks of fio, and "
		"every file it names is replayed onto the job's region, which "
		"replay_redirect asks of fio."},
	[NEG_OTHER] = {"Descriptions, repeatability and report units",
		"These change nothing a simulated run measures."},
};

#define FIELD(f) .off = offsetof(struct ssd_job, f)
#define TIME_HELP_S "time; a bare number is seconds"
#define WORDS(...) .type = OT_WORD, .words = (const char *const[]){__VA_ARGS__, NULL}

const struct jopt job_opts[] = {
	/* what the job does */
	{.name = "name", .type = OT_FN, .fn = job_fn_name,
	 .value = "text, 1..63 characters", .def = "the section name",
	 .help = "Job name in reports and default log prefixes; overrides "
		 "the section name (no effect in [global])."},
	{.name = "rw", .alias = "readwrite", .type = OT_FN, .fn = job_fn_rw,
	 .value = "read, write, trim, randread, randwrite, randtrim, rw, "
		  "readwrite, randrw, trimwrite, randtrimwrite; each with an "
		  "optional :N",
	 .def = "read",
	 .help = "I/O pattern: sequential or random reads, writes, trims, "
		 "a read/write mix (rw = readwrite: sequential mix), or "
		 "trimwrite/randtrimwrite: trim a block, then write the same "
		 "block (io_size and number_ios count the writes).  "
		 "Sequential pattern:SIZE adds SIZE (a multiple of 512 B) "
		 "after each I/O: write:8k leaves 8 KiB holes, read:-8k "
		 "walks backwards.  Random pattern:N takes a new random "
		 "offset every N I/Os (see rw_sequencer)."},
	{.name = "rwmixread", .type = OT_U32, FIELD(rwmixread), .min = 0,
	 .max = 100, .value = "integer 0..100", .def = "50",
	 .help = "Percent of reads in a mixed (rw, randrw) job; each I/O is "
		 "a read with this probability."},
	{.name = "rwmixwrite", .type = OT_FN, .fn = job_fn_rwmixwrite,
	 .value = "integer 0..100", .def = "50",
	 .help = "Percent of writes in a mixed job: sets rwmixread to 100 "
		 "minus this (the later of the two wins)."},
	{.name = "bs", .alias = "blocksize", .type = OT_FN,
	 .fn = job_fn_bs_ddir, FIELD(bs),
	 .value = "size, a multiple of 512 B, 512 B..128 MiB (the trims of "
		  "a zonemode=zbd job: up to 2 GiB, the zone size); or R,W,T "
		  "per direction",
	 .def = "4k",
	 .help = "Bytes per I/O.  R,W,T as fio: bs=8k,32k is 8k reads, "
		 "32k writes and trims; an empty field keeps the value "
		 "before (bs=,8k sets writes and trims only; bs=8k,32k, "
		 "leaves trims alone).  The drive works in 4 KiB pages: "
		 "smaller or unaligned sizes cost whole pages."},
	{.name = "bssplit", .type = OT_FN, .fn = job_fn_bssplit,
	 .value = "SIZE/PERCENT:SIZE/PERCENT:... (up to 64; an empty "
		  "percent shares the rest); or R,W,T lists",
	 .def = "none",
	 .help = "Block sizes drawn at random with these weights; overrides "
		 "bsrange and bs.  Percentages add up to 100.  "
		 "Comma-separated lists per direction as for bs."},
	{.name = "iodepth", .type = OT_U32, FIELD(iodepth), .min = 1,
	 .max = 65536, .value = "integer 1..65536", .def = "1",
	 .help = "I/Os each job instance keeps outstanding."},
	{.name = "size", .type = OT_REGION, .idx = RV_SIZE,
	 .value = "size, N% of the drive capacity with 0 < N <= 100, or Nz "
		  "(N zones)",
	 .def = "capacity - offset",
	 .help = "Length of the region the job works in, from offset.  "
		 "offset + size must fit on the drive.  As in fio, the I/O "
		 "covers whole blocks of the smallest block size: a size in "
		 "bytes that is not (size=1000000000 with 4 KiB blocks) is "
		 "cut down to whole blocks and the report says so.  A "
		 "percentage is rounded down to 4 KiB, and the default "
		 "(to the drive's end) covers the drive: the last I/O is "
		 "shortened if a whole block does not fit."},
	{.name = "io_size", .alias = "io_limit", .type = OT_REGION,
	 .idx = RV_IO_SIZE,
	 .value = "size, N% of the job's size with N > 0, or Nz (N zones)",
	 .def = "size",
	 .help = "Bytes each job instance transfers before it ends; may be "
		 "larger than size (the region is covered again)."},
	{.name = "offset", .alias = "fileoffset", .type = OT_REGION, .idx = RV_OFFSET,
	 .value = "size, a multiple of the 512 B sector, N% of the "
		  "drive capacity with 0 <= N < 100, or Nz (N zones)",
	 .def = "0",
	 .help = "Start of the job's region, bytes from the start of the "
		 "drive (a percentage is aligned up as offset_align says).  "
		 "Inside a 4 KiB page, every I/O straddles pages (a "
		 "misaligned partition: partial pages are read and merged)."},
	{.name = "runtime", .alias = "timeout", .type = OT_TIME, FIELD(runtime), .unit = SSD_S,
	 .value = TIME_HELP_S, .def = "0 (no limit)",
	 .help = "Simulated time after which the job stops, even if io_size "
		 "is not done; as in fio, ramp_time comes on top."},
	{.name = "time_based", .type = OT_BOOL, FIELD(time_based),
	 .value = "boolean; a bare key means 1", .def = "0",
	 .help = "Run for the whole runtime, going over the region again as "
		 "often as needed; needs runtime (without one, fio warns "
		 "\"time_based requires a runtime/timeout setting\" and runs the "
		 "job as without it: so does ssdlab, and its report repeats the "
		 "warning)."},
	{.name = "ramp_time", .type = OT_TIME, FIELD(ramp_time), .unit = SSD_S,
	 .value = TIME_HELP_S, .def = "0",
	 .help = "Simulated time the job runs before anything is counted: "
		 "fio's figures and the drive's (the ssdlab section) both "
		 "cover the I/Os submitted after it."},
	{.name = "random_distribution", .type = OT_FN, .fn = job_fn_dist,
	 .value = "random, zipf[:THETA[:C]], pareto[:H[:C]], normal:D[:C] "
		  "(gauss), zoned:A/S:A/S:..., zoned_abs:A/SIZE:..., "
		  "sequence:B,B,...",
	 .def = "random",
	 .help = "Where random I/O lands: uniform; zipf (theta > 0, default "
		 "1.1); pareto (0 < h < 1, default 0.2); normal: a bell with "
		 "standard deviation D% of the region (0 < D < 100).  Ranks "
		 "of zipf, pareto and normal are scattered over the region "
		 "by a fixed permutation, as fio hashes them; the center C "
		 "(0..1) puts the most popular block at that fraction of "
		 "the region.  zoned: A% of the I/Os go to the next S% of "
		 "the region (A adds up to 100, S to at most 100; an empty "
		 "last S takes the rest); zoned_abs: the same with sizes.  "
		 "Zones per direction as bs: zoned:R,W,T lists, an empty one "
		 "is uniform.  sequence: up to 64 block indices (units of "
		 "the direction's smallest block size), each random I/O of a "
		 "direction the next one, over and over (fio; see "
		 "random_sequence_stride); each must lie inside the job's "
		 "region (with files, a block past a file's end ends that "
		 "file's pass)."},
	{.name = "norandommap", .type = OT_BOOL, FIELD(norandommap),
	 .value = "boolean; a bare key means 1", .def = "0",
	 .help = "Uniform random offsets are drawn with replacement.  "
		 "Without it each pass visits every block once."},
	{.name = "thinktime", .type = OT_TIME, FIELD(thinktime), .unit = SSD_US,
	 .value = "time; a bare number is microseconds", .def = "0",
	 .help = "Idle time after thinktime_blocks I/Os complete, before "
		 "issuing more: the job first waits for its I/Os in flight "
		 "(fio); the drive has the time for background work.  A "
		 "think time after the last I/O is part of the job; runtime "
		 "cuts one short."},
	{.name = "thinktime_blocks", .type = OT_U32, FIELD(thinktime_blocks),
	 .min = 1, .max = UINT32_MAX, .value = "integer >= 1", .def = "1",
	 .help = "I/Os between think times (see thinktime_blocks_type); "
		 "with thinktime_blocks_type=issue it caps the queue depth."},
	{.name = "fsync", .alias = "fdatasync", .type = OT_U32,
	 FIELD(fsync_every), .min = 0, .max = UINT32_MAX,
	 .value = "integer >= 0", .def = "0 (never)",
	 .help = "Issue a flush after every N writes; the job waits for it "
		 "(on a block device fsync and fdatasync both flush the "
		 "drive's write cache)."},
	{.name = "sync", .type = OT_BOOL, FIELD(sync_writes),
	 .value = "boolean; a bare key means 1", .def = "0",
	 .help = "Synchronous writes (O_SYNC): every write is sent with FUA "
		 "and completes only once its data is on NAND."},
	{.name = "stonewall", .alias = "wait_for_previous", .type = OT_BOOL,
	 FIELD(stonewall), .value = "boolean; a bare key means 1",
	 .def = "0",
	 .help = "Start only when every job above has ended (its last I/O "
		 "complete, and its last think time over)."},
	{.name = "numjobs", .type = OT_U32, FIELD(numjobs), .min = 1,
	 .max = 1024, .value = "integer 1..1024", .def = "1",
	 .help = "Clones of the job running side by side, each over the "
		 "whole region with its own random stream."},
	{.name = "group_reporting", .type = OT_BOOL, FIELD(group_reporting),
	 .value = "boolean; a bare key means 1", .def = "0",
	 .help = "Report a reporting group's jobs together, as fio: a job "
		 "with it joins the entry of the job before it when that one "
		 "is in the same reporting group (no stonewall or new_group "
		 "between them), whatever that one's own group_reporting; a "
		 "job without it starts an entry of its own, each of its "
		 "clones one.  The entry is named after its first job "
		 "(jobs=N: every clone of its jobs); its figures are summed "
		 "and merged over them (each direction's runtime the longest "
		 "of those that did I/O that way, job_runtime their sum), "
		 "its job options, percentile and latency_target settings "
		 "the last job's.  Each job still runs its own workload."},
	{.name = "randseed", .type = OT_FN, .fn = job_fn_randseed,
	 .value = "integer", .def = "derived from the run seed",
	 .help = "Seed of the job's random stream."},
	{.name = "write_iops_log", .type = OT_LOG, FIELD(write_iops_log),
	 .size = sizeof(((struct ssd_job *)0)->write_iops_log),
	 .idx = LOG_IOPS,
	 .value = "file prefix; a bare key means the job's name",
	 .def = "none",
	 .help = "Write an IOPS log with this file prefix (fio: "
		 "PREFIX_iops.N.log)."},
	{.name = "write_bw_log", .type = OT_LOG, FIELD(write_bw_log),
	 .size = sizeof(((struct ssd_job *)0)->write_bw_log), .idx = LOG_BW,
	 .value = "file prefix; a bare key means the job's name",
	 .def = "none",
	 .help = "Write a bandwidth log with this file prefix (fio: "
		 "PREFIX_bw.N.log)."},
	{.name = "write_lat_log", .type = OT_LOG, FIELD(write_lat_log),
	 .size = sizeof(((struct ssd_job *)0)->write_lat_log), .idx = LOG_LAT,
	 .value = "file prefix; a bare key means the job's name",
	 .def = "none",
	 .help = "Write latency logs with this file prefix (fio: "
		 "PREFIX_lat.N.log, _clat, _slat)."},
	{.name = "log_avg_msec", .type = OT_I64, FIELD(log_avg_msec),
	 .min = 0, .max = 86400000, .value = "integer milliseconds",
	 .def = "0",
	 .help = "Average log entries over this window; 0 logs every I/O.  "
		 "At the job's end the latency logs write the last, partial "
		 "window once; the iops and bw logs keep whole windows only "
		 "(fio 3.33; docs/output.md)."},

	/* the I/O stream: sizes, offsets, patterns, files (more) */
	{.name = "filename", .type = OT_FN, .fn = job_fn_filename,
	 .value = "a path, or NAME:NAME:... (\\: for a colon in a name)",
	 .def = "the drive",
	 .help = "One name (a /dev/ path or any file) is the drive, as "
		 "before, unless filesize is given or another job lays the "
		 "name out as a file.  Several names are files: regions of "
		 "the drive laid out as a fresh file system would (each "
		 "contiguous, 4 KiB aligned, one after another from byte 0 "
		 "in the order the job file first names them); every job "
		 "naming a file works on the same region.  Overrides "
		 "nrfiles.  A list of /dev/ names is refused (one drive)."},
	{.name = "nrfiles", .alias = "nr_files", .type = OT_U32, FIELD(nrfiles), .min = 1,
	 .max = SSD_JOB_MAX_FILES, .value = "integer 1..524288", .def = "1",
	 .help = "Files of each clone when filename is not given, named by "
		 "filename_format (default: each clone its own files).  size "
		 "is split over them unless filesize is given.  At most 524288 "
		 "files x clones in a job file."},
	{.name = "filename_format", .type = OT_FN, .fn = job_fn_filename_format,
	 .value = "text with $jobname, $jobnum, $filenum, $clientuid",
	 .def = "$jobname.$jobnum.$filenum",
	 .help = "Names of the files of nrfiles; equal names are one file "
		 "(e.g. data.$filenum: all clones and jobs share the set)."},
	{.name = "filesize", .type = OT_FN, .fn = job_fn_filesize,
	 .value = "size or LOW-HIGH", .def = "size / files",
	 .help = "Size of each file (a range: each file's size drawn in it, "
		 "LOW plus a multiple of 4 KiB, from its name); the job does "
		 "I/O from offset to the file's last whole block (as in fio: "
		 "a file that is not whole blocks keeps its tail; the report "
		 "says so).  size then only caps the bytes done (default: all "
		 "the files), as in fio."},
	{.name = "file_service_type", .type = OT_FN, .fn = job_fn_fsrv,
	 .value = "roundrobin[:N], sequential[:N], random[:N], "
		  "zipf[:THETA], pareto[:H], normal[:DEV] (gauss)",
	 .def = "roundrobin",
	 .help = "File of each I/O: N I/Os to a file then the next one "
		 "(roundrobin) or one drawn at random (random), a whole file "
		 "then the next (sequential; its N changes nothing, as in "
		 "fio); a file that has had its size "
		 "is left out until all have (then all start again).  zipf "
		 "(theta > 0, not 1; default 1.1), pareto (0 < h < 1, default "
		 "0.2), normal (deviation 0..100%, default 0) draw each I/O's "
		 "file, file 0 hottest (normal: the middle one), as fio."},
	{.name = "openfiles", .type = OT_FN, .fn = job_fn_openfiles,
	 .value = "integer 1..524288", .def = "nrfiles",
	 .help = "Accepted: opening a file costs nothing on the simulated "
		 "drive, so the limit on open files changes no I/O."},
	{.name = "offset_increment", .type = OT_FN,
	 .fn = job_fn_offset_increment,
	 .value = "size (a multiple of 512 B), N% of the drive (0..100), "
		  "or Nz (N zones)",
	 .def = "0",
	 .help = "Clone k (numjobs) starts at offset + k x this, with its "
		 "own size (default: to the drive's or the file's end); a "
		 "percentage is aligned up as offset_align says.  Every "
		 "clone's region must fit."},
	{.name = "offset_align", .type = OT_FN, .fn = job_fn_size64,
	 FIELD(offset_align), .min = 0, .max = JOB_SECTOR,
	 .value = "size, a multiple of 512 B", .def = "0 (the smallest block)",
	 .help = "A percentage offset or offset_increment is aligned up to "
		 "this; 0: to the smallest block size (at least 4 KiB)."},
	{.name = "fill_device", .alias = "fill_fs", .type = OT_BOOL,
	 FIELD(fill_device), .value = "boolean (a bare key means 1)",
	 .def = "0",
	 .help = "Work from offset to the end of the drive (its user "
		 "capacity), whatever size says, as fio does on a block "
		 "device: a write job fills the drive.  Not with files."},
	{.name = "zonemode", .type = OT_FN, .fn = job_fn_zonemode,
	 .value = "none, strided, zbd",
	 .def = "none (strided if zonesize is set)",
	 .help = "strided: fio's classic zones.  zbd: a zoned block device, "
		 "as fio's zbd.c (docs/fio-zoned.md): every write goes to the "
		 "write pointer of a zone, a full zone chosen again is reset, "
		 "trims reset zones, reads stay below the write pointers; on "
		 "a conventional drive the zones are emulated (zonesize "
		 "needed, each run starts with every zone empty), on a zoned "
		 "drive (mapping=zone) they are the drive's."},
	{.name = "zonesize", .type = OT_FN, .fn = job_fn_size64,
	 FIELD(zonesize),
	 .min = 512, .max = 512, .value = "size, a multiple of 512 B",
	 .def = "0",
	 .help = "strided: bytes done in a zone before moving on (less than "
		 "zonerange: only the zone's start is used; more: the zone is "
		 "covered again).  zbd: the zone size, at least 512 B; "
		 "needed for emulated zones; on a zoned drive 0 or the "
		 "drive's."},
	{.name = "zonerange", .type = OT_FN, .fn = job_fn_size64,
	 FIELD(zonerange),
	 .min = JOB_PAGE, .max = JOB_PAGE, .value = "size, a multiple of 4 KiB",
	 .def = "zonesize",
	 .help = "strided: length of a zone; I/O (sequential or random) stays "
		 "inside it.  Zones start at offset and go to the end of the "
		 "drive (or the file), then wrap to the first; size only sets "
		 "the bytes done, as in fio.  zbd: ignored, as in fio."},
	{.name = "zoneskip", .type = OT_FN, .fn = job_fn_size64,
	 FIELD(zoneskip),
	 .min = 0, .max = JOB_SECTOR,
	 .value = "size, a multiple of 512 B, or Nz (N zones)",
	 .def = "0",
	 .help = "strided: bytes skipped after each zone (the next zone "
		 "starts zonerange + zoneskip after this one).  zbd: 0 (what "
		 "fio's HOWTO asks; ssdlab does not skip zones)."},
	{.name = "zonecapacity", .type = OT_FN, .fn = job_fn_size64,
	 FIELD(zonecapacity), .min = 0, .max = JOB_SECTOR,
	 .value = "size, a multiple of 512 B, at most zonesize",
	 .def = "0 (zonesize)",
	 .help = "zbd, emulated zones: bytes writable from each zone's start "
		 "(a sequential job jumps from there to the next zone).  A "
		 "zoned drive has its own capacity: ignored, as in fio."},
	{.name = "max_open_zones", .type = OT_FN, .fn = job_fn_zone_limit,
	 FIELD(max_open_zones), .min = 0, .max = 4096,
	 .value = "integer 0..4096", .def = "0 (the drive's limit, or none)",
	 .help = "zbd: zones the jobs on the drive write at once at most (fio's "
		 "write target zones, shared by every job); a random write to "
		 "another zone goes to one of them.  On a zoned drive at most "
		 "its max_open_zones, unless ignore_zone_limits."},
	{.name = "job_max_open_zones", .type = OT_FN, .fn = job_fn_zone_limit,
	 FIELD(job_max_open_zones), .min = 0, .max = 4096,
	 .value = "integer 0..4096", .def = "0 (no limit)",
	 .help = "zbd: zones this job writes at once at most; needs "
		 "max_open_zones (or the zoned drive's limit)."},
	{.name = "ignore_zone_limits", .type = OT_BOOL,
	 FIELD(ignore_zone_limits), .value = "boolean; a bare key means 1",
	 .def = "0",
	 .help = "zbd: do not take the zoned drive's open-zone limit: "
		 "max_open_zones may exceed it (the drive then refuses what "
		 "it cannot take) and 0 means no limit."},
	{.name = "zone_reset_threshold", .type = OT_FN, .fn = job_fn_zone_frac,
	 FIELD(zone_reset_threshold), .value = "number 0..1", .def = "0",
	 .help = "zbd: with zone_reset_frequency, once the data in the job's "
		 "zones is above this fraction of its region, writes reset "
		 "the zone they go to, one in 1/zone_reset_frequency."},
	{.name = "zone_reset_frequency", .type = OT_FN, .fn = job_fn_zone_frac,
	 FIELD(zone_reset_frequency), .value = "number 0..1", .def = "0",
	 .help = "zbd: one write in 1/this resets its zone first (above "
		 "zone_reset_threshold), as fio simulates garbage "
		 "collection."},
	{.name = "read_beyond_wp", .type = OT_BOOL, FIELD(read_beyond_wp),
	 .value = "boolean; a bare key means 1", .def = "0",
	 .help = "zbd: 0: reads stay below the write pointers (moved to "
		 "written data, shortened; a sequential read jumps to the next "
		 "zone with data; the job ends when nothing is left to read); "
		 "1: reads go where they are drawn."},
	{.name = "write_zone_remainder", .type = OT_BOOL,
	 FIELD(write_zone_remainder), .value = "boolean; a bare key means 1",
	 .def = "0",
	 .help = "zbd: a zone's last part smaller than the block size is "
		 "written with a short write; without it the zone is "
		 "finished (fio HEAD).  Needs norandommap (set when not "
		 "given)."},
	{.name = "recover_zbd_write_error", .type = OT_BOOL,
	 FIELD(recover_zbd_write_error),
	 .value = "boolean; a bare key means 1", .def = "0",
	 .help = "zbd: with continue_on_error, fio rewrites what a failed "
		 "write left missing.  Accepted with fio's checks: the "
		 "simulated writes at the write pointer do not fail part "
		 "way."},
	/* data placement (docs/fdp.md, "fio's options") */
	{.name = "fdp", .type = OT_BOOL, FIELD(fdp),
	 .value = "boolean; a bare key means 1", .def = "0",
	 .help = "Writes carry a Flexible Data Placement identifier, chosen "
		 "by plid_select from the drive's (fdp=yes in the drive); "
		 "dataplacement=fdp says the same."},
	{.name = "dataplacement", .alias = "data_placement",
	 WORDS("none", "fdp", "streams"), FIELD(dp_type),
	 .value = "none, fdp, streams", .def = "none",
	 .help = "The directive writes carry.  fdp: a placement identifier "
		 "of the drive's reclaim unit handle list.  streams: a "
		 "stream identifier from plids, which the drive's handles "
		 "take as the older Streams directive's streams (stream s on "
		 "the handle of that identifier)."},
	{.name = "plid_select", .alias = "fdp_pli_select",
	 WORDS("random", "roundrobin", "scheme"), FIELD(dp_select),
	 .value = "random, roundrobin, scheme", .def = "roundrobin",
	 .help = "How each write's identifier is chosen among plids: in "
		 "turn, or uniformly at random (ssdlab's generator, seeded "
		 "by the job), or by the write's offset through dp_scheme's "
		 "ranges (whose identifier goes to the drive as written, as "
		 "in fio; plids ignored)."},
	{.name = "plids", .alias = "fdp_pli", .type = OT_FN,
	 .fn = job_fn_plids,
	 .value = "list of integers or ranges, 0..65535 (e.g. 0,2-4)",
	 .def = "every identifier the drive lists (fdp)",
	 .help = "fdp: indices into the drive's placement identifier list "
		 "(as `nvme fdp status` lists them; each must be below its "
		 "length).  streams: the stream identifiers themselves, "
		 "needed.  Kept sorted, at most 128, as in fio."},
	{.name = "dp_scheme", .type = OT_FN, .fn = job_fn_dp_scheme,
	 .value = "a file of lines START,END,PLID (bytes; at most 32)",
	 .def = "none",
	 .help = "plid_select=scheme: a write at offset o takes the "
		 "identifier of the first line with START <= o < END, else "
		 "0, the default handle.  Read when the job is read; a line "
		 "that is not three integers is an error naming it."},
	{.name = "bsrange", .alias = "blocksize_range", .type = OT_FN,
	 .fn = job_fn_bsrange,
	 .value = "MIN-MAX (or MIN:MAX) block sizes; or R,W,T ranges",
	 .def = "none",
	 .help = "I/O sizes drawn in the range as fio draws them: MIN + a "
		 "uniform fraction of MAX, rounded down to a multiple of "
		 "MIN, at most MAX (bsrange=4k-16k gives 4, 8, 12 and 16k "
		 "alike).  Overrides bs; bssplit overrides it."},
	{.name = "bs_unaligned", .alias = "blocksize_unaligned",
	 .type = OT_BOOL, FIELD(bs_unaligned),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "bsrange sizes need not be multiples of MIN: any multiple "
		 "of 512 B in the range (fio allows any byte count; ssdlab's "
		 "unit is the 512 B sector)."},
	{.name = "blockalign", .alias = "ba", .type = OT_FN,
	 .fn = job_fn_bs_ddir, FIELD(blockalign),
	 .value = "size, a multiple of 512 B; or R,W,T", .def = "min block size",
	 .help = "Random offsets are multiples of this (from the region's "
		 "start) instead of the smallest block size.  As in fio, a "
		 "value other than the smallest block size turns the random "
		 "map off (norandommap)."},
	{.name = "percentage_random", .type = OT_FN, .fn = job_fn_perc_random,
	 .value = "integer 0..100; or R,W,T", .def = "100",
	 .help = "In a random job, the percentage of I/Os at a random "
		 "offset; the others continue sequentially from the end of "
		 "the direction's last I/O (0 makes the job sequential)."},
	{.name = "rw_sequencer", WORDS("sequential", "identical"),
	 FIELD(rw_sequencer),
	 .value = "sequential, identical", .def = "sequential",
	 .help = "With rw=RANDOM:N, the N-1 I/Os after each random one: "
		 "sequential continues from it; identical repeats its "
		 "offset.  No effect on sequential patterns."},
	{.name = "random_generator",
	 WORDS("tausworthe", "lfsr", "tausworthe64"), FIELD(random_generator),
	 .value = "tausworthe, lfsr, tausworthe64", .def = "tausworthe",
	 .help = "fio's offset generators.  tausworthe and tausworthe64 "
		 "both stand for ssdlab's one stream (xoshiro256**), with "
		 "the random map unless norandommap.  lfsr, which in fio "
		 "visits every block once per period without a map, is "
		 "ssdlab's random-map permutation, even with norandommap "
		 "(one block size only; with several, offsets are drawn "
		 "with replacement, as fio's lfsr then repeats blocks)."},
	{.name = "number_ios", .type = OT_FN, .fn = job_fn_number_ios,
	 .value = "integer >= 0 (k/m/g suffixes)", .def = "0 (no limit)",
	 .help = "Stop after this many I/Os (in trimwrite: trim+write "
		 "pairs), in each loop, if io_size or runtime do not end "
		 "the job first; also ends a time_based job."},
	{.name = "loops", .type = OT_U32, FIELD(loops), .min = 1,
	 .max = 1000000, .value = "integer 1..1000000", .def = "1",
	 .help = "Run the job's whole I/O pass this many times: each loop "
		 "issues io_size (or number_ios) anew, sequential walks "
		 "start again at the region's start and the random map "
		 "starts a new pass.  No effect with time_based."},

	/* pacing and the order of jobs */
	{.name = "rate", .type = OT_FN, .fn = job_fn_rate, FIELD(rate),
	 .size = 1,
	 .value = "size per second, or READ,WRITE,TRIM (an empty entry: no "
		  "limit)",
	 .def = "0 (no limit)",
	 .help = "Bandwidth cap, bytes/s of simulated time per direction: an "
		 "I/O is submitted no earlier than its turn (issued bytes / "
		 "rate); a drive slower than that keeps the queue at iodepth.  "
		 "A mixed job waits for the direction it drew (fio may switch "
		 "to the other one)."},
	{.name = "rate_iops", .type = OT_FN, .fn = job_fn_rate,
	 FIELD(rate_iops),
	 .value = "integer, or READ,WRITE,TRIM", .def = "0 (no limit)",
	 .help = "The same cap in I/Os per second (rate_iops x the smallest "
		 "block size; with bssplit each I/O takes 1/rate_iops).  "
		 "Not together with rate."},
	{.name = "rate_min", .alias = "ratemin", .type = OT_FN,
	 .fn = job_fn_rate, FIELD(rate_min), .size = 1,
	 .value = "size per second, or READ,WRITE,TRIM", .def = "0",
	 .help = "The job ends with an I/O error (err=5) when its bandwidth "
		 "over a ratecycle falls below this, checked as fio does: "
		 "after 2 s, once per ratecycle, at completions."},
	{.name = "rate_iops_min", .type = OT_FN, .fn = job_fn_rate,
	 FIELD(rate_iops_min), .value = "integer, or READ,WRITE,TRIM",
	 .def = "0",
	 .help = "The same minimum in I/Os per second."},
	{.name = "rate_cycle", .alias = "ratecycle", .type = OT_TIME,
	 FIELD(ratecycle), .unit = SSD_MS,
	 .value = "time; a bare number is milliseconds", .def = "1000",
	 .help = "Window of the rate_min and rate_iops_min checks."},
	{.name = "rate_process", WORDS("linear", "poisson"),
	 FIELD(rate_poisson),
	 .value = "linear, poisson", .def = "linear",
	 .help = "linear: the I/Os of a rated job are evenly spaced; "
		 "poisson: exponential gaps of mean 1/IOPS drawn from the "
		 "job's random stream (the same seed, the same arrivals)."},
	{.name = "rate_ignore_thinktime", .type = OT_BOOL,
	 FIELD(rate_ignore_thinktime),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "After a think time keep to the rate instead of catching "
		 "up on the I/Os the think time cost."},
	{.name = "io_submit_mode", WORDS("inline", "offload"),
	 FIELD(io_submit_offload),
	 .value = "inline, offload", .def = "inline",
	 .help = "inline: a rated job that is ahead of its rate first waits "
		 "for its I/Os in flight, then for its turn (fio's job thread "
		 "does both); offload: I/Os go out at their turn whatever is "
		 "in flight, each submitted at once and reaped as it "
		 "completes.  No host threads exist here, so the modes "
		 "differ only in that order; no submission cost is added."},
	{.name = "startdelay", .type = OT_FN, .fn = job_fn_startdelay,
	 .value = "time, or LOW-HIGH (a bare number is seconds)", .def = "0",
	 .help = "The job starts this long after the start of the run (as "
		 "fio: not of its stonewall group); with a range each clone "
		 "draws its own delay from its random stream."},
	{.name = "iodepth_batch", .alias = "iodepth_batch_submit",
	 .type = OT_U32, FIELD(iodepth_batch), .min = 0, .max = 65536,
	 .value = "integer 0..65536 (0: iodepth)", .def = "1",
	 .help = "I/Os queued before they go to the drive together (also "
		 "when the job waits for completions or stops)."},
	{.name = "iodepth_batch_complete_min",
	 .alias = "iodepth_batch_complete", .type = OT_U32,
	 FIELD(iodepth_batch_complete_min), .min = 0, .max = 65536,
	 .value = "integer 0..65536", .def = "1",
	 .help = "With a full queue, the job waits until this many I/Os have "
		 "completed and reaps them together: latency counts to the "
		 "reaping."},
	{.name = "iodepth_batch_complete_max", .type = OT_U32,
	 FIELD(iodepth_batch_complete_max), .min = 0, .max = 65536,
	 .value = "integer 0..65536", .def = "iodepth_batch_complete_min",
	 .help = "Most completions reaped at once."},
	{.name = "iodepth_low", .type = OT_U32, FIELD(iodepth_low), .min = 0,
	 .max = 65536, .value = "integer 0..65536 (0 or > iodepth: iodepth)",
	 .def = "iodepth",
	 .help = "A full queue is refilled only once it has drained to this "
		 "depth."},
	{.name = "thinktime_spin", .type = OT_TIME, FIELD(thinktime_spin),
	 .unit = SSD_US, .value = "time; a bare number is microseconds",
	 .def = "0",
	 .help = "Of each think time, the part the host spins (busy, no "
		 "I/O) before it sleeps the rest; at most thinktime.  To the "
		 "drive both are idle time, so the think time is unchanged."},
	{.name = "thinktime_blocks_type", WORDS("complete", "issue"),
	 FIELD(thinktime_issue),
	 .value = "complete, issue", .def = "complete",
	 .help = "Whether thinktime_blocks counts completed or issued I/Os."},
	{.name = "thinktime_iotime", .type = OT_TIME, FIELD(thinktime_iotime),
	 .unit = SSD_S, .value = TIME_HELP_S, .def = "0",
	 .help = "Think after this much time of I/O (or after "
		 "thinktime_blocks I/Os if that is given, whichever comes "
		 "first)."},
	{.name = "new_group", .type = OT_BOOL, FIELD(new_group),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Start a new reporting group (groupid) without waiting for "
		 "the jobs above."},
	{.name = "wait_for", .type = OT_FN, .fn = job_fn_wait_for,
	 .value = "the name of a job above", .def = "none",
	 .help = "Start when every clone of that job has ended.  The job "
		 "must come earlier in the file and its name must be unique."},
	{.name = "exitall", .type = OT_BOOL, FIELD(exitall),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "When any job ends, the other jobs of its reporting group "
		 "end too (their I/Os in flight complete)."},
	{.name = "exitall_on_error", .type = OT_BOOL, FIELD(exitall_on_error),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "When this job ends in error, the other jobs of its "
		 "reporting group end."},
	{.name = "flow_id", .type = OT_U32, FIELD(flow_id), .min = 0,
	 .max = UINT32_MAX, .value = "integer", .def = "0",
	 .help = "The flow the job's flow weight counts in."},
	{.name = "flow", .type = OT_U32, FIELD(flow), .min = 0, .max = 1000,
	 .value = "integer 0..1000", .def = "0",
	 .help = "fio's token flow control: jobs of one flow_id issue I/Os "
		 "in the ratio of their weights; a job ahead of its share "
		 "waits (flow_sleep, else until another job of the flow "
		 "issues)."},
	{.name = "flow_sleep", .type = OT_TIME, FIELD(flow_sleep),
	 .unit = SSD_US, .value = "time; a bare number is microseconds",
	 .def = "0",
	 .help = "How long a job held back by its flow waits, after its I/Os "
		 "in flight complete, before it tries again."},
	{.name = "end_fsync", .type = OT_BOOL, FIELD(end_fsync),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "A job that wrote ends with a flush of the drive's write "
		 "cache, and waits for it (part of its runtime)."},
	{.name = "fsync_on_close", .type = OT_BOOL, FIELD(fsync_on_close),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "The same flush when the job closes its file: one file, the "
		 "drive, so with end_fsync too it is still one flush (fio "
		 "skips a sync right after a sync)."},
	{.name = "steadystate", .alias = "ss", .type = OT_FN,
	 .fn = job_fn_steadystate,
	 .value = "iops, iops_slope, bw, bw_slope, lat, lat_slope, then "
		  ":LIMIT or :LIMIT%",
	 .def = "iops_slope:0.01%",
	 .help = "fio's steady-state end (with ss_dur): deviation from the "
		 "window's mean, or the slope of its samples, below the limit; "
		 "reported as fio's \"steadystate\" object."},
	{.name = "steadystate_duration", .alias = "ss_dur", .type = OT_TIME,
	 FIELD(ss_dur), .unit = SSD_S, .value = TIME_HELP_S,
	 .def = "0 (off)",
	 .help = "Rolling window of the steady-state check: a multiple of "
		 "ss_interval, longer than it."},
	{.name = "steadystate_ramp_time", .alias = "ss_ramp", .type = OT_TIME,
	 FIELD(ss_ramp), .unit = SSD_S, .value = TIME_HELP_S, .def = "0",
	 .help = "Time before steady-state samples are taken."},
	{.name = "steadystate_check_interval", .alias = "ss_interval",
	 .type = OT_TIME, FIELD(ss_interval), .unit = SSD_S,
	 .value = "whole seconds, >= 1 (the same in every job)", .def = "1",
	 .help = "One steady-state sample per interval of simulated time."},
	{.name = "latency_target", .type = OT_TIME, FIELD(latency_target),
	 .unit = SSD_US, .value = "time; a bare number is microseconds",
	 .def = "0 (off)",
	 .help = "fio's latency profiling: search for the deepest queue, "
		 "1..iodepth, at which latency_percentile of the I/Os of "
		 "every latency_window complete within this latency "
		 "(submission to completion).  The depth starts at 1 and "
		 "doubles after each window that meets the target; a window "
		 "that misses it (with latency_percentile=100, a single I/O "
		 "over the target, at once) halves the step back towards the "
		 "last depth that met it, as a bisection.  When a window "
		 "leaves the depth unchanged the job waits for its I/Os, its "
		 "figures start over (and its runtime), one more window runs "
		 "at that depth and the job ends (unless latency_run).  An "
		 "I/O over the target at depth 1 with "
		 "latency_percentile=100 ends the job with err=110; with a "
		 "lower percentile the job stays at depth 1.  The depth "
		 "reached is reported as latency_depth."},
	{.name = "latency_window", .type = OT_TIME, FIELD(latency_window),
	 .unit = SSD_US, .value = "time; a bare number is microseconds",
	 .def = "0",
	 .help = "Simulated time each queue depth of the latency_target "
		 "search runs before it is judged (0: judged at every turn of "
		 "the job's loop, as fio)."},
	{.name = "latency_percentile", .type = OT_FN,
	 .fn = job_fn_latency_percentile, .value = "a number 0..100",
	 .def = "100",
	 .help = "Percent of the I/Os of a latency_window that must complete "
		 "within latency_target."},
	{.name = "latency_run", .type = OT_BOOL, FIELD(latency_run),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Keep adjusting the queue depth to latency_target for the "
		 "whole job instead of ending once the search converged."},
	{.name = "flow_watermark", .type = OT_NOEFFECT, .fn = job_ne_text,
	 .value = "an integer",
	 .help = "Deprecated in fio, which ignores it as well."},

	/* data verification */
	{.name = "verify", .type = OT_FN, .fn = job_fn_verify,
	 .value = "0, md5, crc64, crc32c, crc32c-intel, crc32, crc16, crc7, "
		  "xxhash, sha1, sha256, sha512, sha3-224, sha3-256, sha3-384, "
		  "sha3-512, meta, pattern, pattern_hdr, null",
	 .def = "0 (off)",
	 .help = "Check what the drive returns.  The drive keeps no data, "
		 "but every 4 KiB slot holds which logical page and which "
		 "write of it it carries (the out-of-band area): a checked "
		 "read must find the latest write of each page, or zeros "
		 "where the run last trimmed it (a TRIM frees the 4 KiB "
		 "pages wholly inside it; a page it covers in part keeps its "
		 "data); anything else is a verify failure (err=84).  Every "
		 "checksum means the same here; null checks nothing, as in "
		 "fio.  Write jobs read back every "
		 "block they wrote after the write phase (after a flush, "
		 "within the runtime); read jobs check every read."},
	{.name = "do_verify", .type = OT_BOOL, FIELD(do_verify),
	 .value = "boolean (a bare key means 1)", .def = "1",
	 .help = "Run the verify phase after the writes of a job with "
		 "verify set."},
	{.name = "verify_only", .type = OT_BOOL, FIELD(verify_only),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Write nothing: replay the job's writes as verify reads "
		 "of what an earlier job wrote (not with time_based)."},
	{.name = "verify_backlog", .type = OT_FN, .fn = job_fn_blocks,
	 FIELD(verify_backlog), .value = "integer (blocks), 0 = off",
	 .def = "0",
	 .help = "Verify while writing: after every N blocks written, read "
		 "back verify_backlog_batch of the oldest unverified ones."},
	{.name = "verify_backlog_batch", .type = OT_FN, .fn = job_fn_blocks,
	 FIELD(verify_backlog_batch), .value = "integer (blocks)",
	 .def = "verify_backlog",
	 .help = "Blocks read back each time verify_backlog triggers."},
	{.name = "verify_fatal", .type = OT_BOOL, FIELD(verify_fatal),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Accepted: a job always ends at its first failed block, "
		 "as fio's does without continue_on_error."},
	{.name = "verify_dump", .type = OT_BOOL, FIELD(verify_dump),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Accepted: there is no data to dump; the failure message "
		 "names the offset and the expected and found write."},
	{.name = "verify_interval", .type = OT_FN, .fn = job_fn_vbytes,
	 FIELD(verify_interval), .min = 80, .max = JOB_BS_MAX,
	 .value = "size, 80 B..128 MiB", .def = "the block size",
	 .help = "Accepted: headers are not modelled; every 4 KiB page of a "
		 "block is checked."},
	{.name = "verify_offset", .type = OT_FN, .fn = job_fn_vbytes,
	 FIELD(verify_offset), .min = 40, .max = JOB_BS_MAX,
	 .value = "size, 40 B..128 MiB", .def = "0",
	 .help = "Accepted: headers are not modelled."},
	{.name = "experimental_verify", .type = OT_BOOL,
	 FIELD(experimental_verify), .value = "boolean (a bare key means 1)",
	 .def = "0",
	 .help = "The verify phase replays every write of the job, also "
		 "blocks already read back since their last write (without "
		 "it each block is read once after its latest write)."},
	{.name = "trim_percentage", .type = OT_U32, FIELD(trim_percentage),
	 .min = 0, .max = 100, .value = "integer 0..100", .def = "0",
	 .help = "fio's trim verification (with verify and trim_backlog): "
		 "this percent of the written blocks, drawn at random, are "
		 "trimmed again, and the verify phase checks they read as "
		 "zeros (their whole 4 KiB pages: a page a block covers in "
		 "part keeps its data)."},
	{.name = "trim_verify_zero", .type = OT_BOOL, FIELD(trim_verify_zero),
	 .value = "boolean (a bare key means 1)", .def = "1",
	 .help = "Trimmed blocks must read as zeros; with 0 they are not "
		 "checked."},
	{.name = "trim_backlog", .type = OT_FN, .fn = job_fn_blocks,
	 FIELD(trim_backlog), .value = "integer (blocks), 0 = off",
	 .def = "0",
	 .help = "Trim after every N blocks written: trim_backlog_batch of "
		 "the oldest blocks chosen by trim_percentage."},
	{.name = "verify_pattern", .type = OT_NOEFFECT, .fn = job_ne_pattern,
	 .value = "fio's pattern: 0xHEX, decimal, \"text\", %o, in sequence",
	 .help = "Data content is not modelled: what is checked is which "
		 "write of each page the drive returns, not its bytes."},
	{.name = "verify_async", .type = OT_NOEFFECT, .fn = job_ne_uint,
	 .max = 1024, .value = "integer 0..1024",
	 .help = "Checking costs no host time in the simulation."},
	{.name = "verify_async_cpus", .type = OT_NOEFFECT, .fn = job_ne_cpus,
	 .value = "a CPU list", .help = "Host CPUs are not modelled."},
	{.name = "verify_state_save", .type = OT_NOEFFECT, .fn = job_ne_bool,
	 .value = "boolean",
	 .help = "Jobs are not interrupted by triggers, so there is no "
		 "state to save."},
	{.name = "verify_state_load", .type = OT_NOEFFECT, .fn = job_ne_bool,
	 .value = "boolean",
	 .help = "The drive's own record of every write replaces fio's "
		 "state files: a later job verifies what earlier jobs of "
		 "the run wrote."},
	{.name = "trim_backlog_batch", .type = OT_FN, .fn = job_fn_blocks,
	 FIELD(trim_backlog_batch), .value = "integer (blocks)",
	 .def = "trim_backlog",
	 .help = "Blocks trimmed each time trim_backlog triggers."},

	/* logs and output (more) */
	{.name = "write_hist_log", .type = OT_LOG, FIELD(write_hist_log),
	 .size = sizeof(((struct ssd_job *)0)->write_hist_log),
	 .idx = LOG_HIST,
	 .value = "file prefix (a bare key means the job's name)",
	 .def = "none",
	 .help = "Write a completion-latency histogram log with this file "
		 "prefix (fio: PREFIX_clat_hist.N.log): every log_hist_msec, "
		 "per direction, the completions since the last line in "
		 "fio's 1856 latency bins (fewer with log_hist_coarseness); "
		 "fio's fiologparser_hist.py reads it.  Empty unless "
		 "log_hist_msec is set."},
	{.name = "log_hist_msec", .type = OT_I64, FIELD(log_hist_msec),
	 .min = 0, .max = 86400000, .value = "integer milliseconds",
	 .def = "0",
	 .help = "Interval of the histogram log: a line is written at the "
		 "first completion of a direction at least this long after "
		 "its last line, stamped with that completion's time (fio); "
		 "the completions after the last line are not written."},
	{.name = "log_hist_coarseness", .type = OT_U32,
	 FIELD(log_hist_coarseness), .min = 0, .max = 6,
	 .value = "integer 0..6", .def = "0",
	 .help = "Each step halves the histogram log's columns by summing "
		 "neighbouring bins (1856 bins at 0, 29 at 6)."},
	{.name = "log_offset", .type = OT_BOOL, FIELD(log_offset),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Log lines carry the I/O's byte offset, before the "
		 "priority column (0 in averaged lines)."},
	{.name = "log_prio", .type = OT_BOOL, FIELD(log_prio),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "The priority column shows fio's 16-bit priority in hex "
		 "(0x0000: the simulated host sets no I/O priority) instead "
		 "of 0/1 for the highest real-time class (always 0)."},
	{.name = "per_job_logs", .type = OT_BOOL, FIELD(per_job_logs),
	 .value = "boolean (a bare key means 1)", .def = "1",
	 .help = "Log names carry the job's number (PREFIX_KIND.N.log).  "
		 "With 0 they do not (PREFIX_KIND.log): files are appended "
		 "to, not replaced, and jobs with the same prefix share "
		 "them, each job's lines in one block as fio writes them."},

	/* errors, exits, percentiles and command modes */
	{.name = "continue_on_error", .type = OT_FN, .fn = job_fn_coe,
	 .value = "none, read, write, io, verify, all, 0 (none), 1 (all)",
	 .def = "none",
	 .help = "Errors of these kinds do not end the job (fio): a write "
		 "or trim the drive refuses once worn out to read-only "
		 "(reported as EROFS: ssdlab counts it with fio's non-fatal "
		 "EIO) is a write error, a failed data check (EILSEQ) a "
		 "verify error.  The command is answered after the "
		 "controller's cmd_overhead (at least 1 us) and not counted "
		 "in the statistics, as fio does not count a failed I/O; the "
		 "job goes on to the end of its io_size or runtime.  The "
		 "report adds fio's total_err and first_error (text: "
		 "\"errors    : total=N, first_error=E/<...>\") and the job's "
		 "error is the first one.  Failures of the simulation itself "
		 "(an invariant broken, out of memory) always end the run."},
	{.name = "ignore_error", .type = OT_FN, .fn = job_fn_ignore_error,
	 .value = "READ_LIST,WRITE_LIST,VERIFY_LIST, each a ':' list of "
		  "errno names (EIO, EROFS, ENOSPC...) or numbers",
	 .def = "EIO:EROFS:EILSEQ for every kind",
	 .help = "fio's lists of the errors continue_on_error goes on "
		 "after, per kind; a non-empty list replaces that kind's "
		 "list and turns continue_on_error on for it "
		 "(ignore_error=,EROFS: go on after refused writes only)."},
	{.name = "error_dump", .type = OT_BOOL, FIELD(error_dump),
	 .value = "boolean (a bare key means 1)", .def = "1",
	 .help = "Accepted: fio writes a line per error; ssdlab's report "
		 "names the first failed command and counts the others."},
	{.name = "exit_what", .type = OT_FN, .fn = job_fn_exit_what,
	 .value = "group, stonewall, all", .def = "group",
	 .help = "What exitall ends when this job ends (fio): the jobs of "
		 "its reporting group; every running job of its stonewall "
		 "group (the next group then starts); or every job, the "
		 "later groups then do not run (they are reported with "
		 "nothing done, as fio reports them)."},
	{.name = "clat_percentiles", .type = OT_FN,
	 .fn = job_fn_clat_percentiles,
	 .value = "boolean (a bare key means 1)", .def = "1",
	 .help = "Report completion latency percentiles (normal and JSON "
		 "output)."},
	{.name = "lat_percentiles", .type = OT_BOOL, FIELD(lat_percentiles),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Also report total latency percentiles, as fio prints them "
		 "(\"lat percentiles\", lat_ns.percentile; the terse line's "
		 "percentiles then are these).  No submission latency is "
		 "modelled, so total latency equals completion latency and "
		 "the two lists hold the same values."},
	{.name = "slat_percentiles", .type = OT_BOOL, FIELD(slat_percentiles),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Report submission latency percentiles: submission takes "
		 "no simulated time, so every value is 0 (JSON slat_ns)."},
	{.name = "percentile_list", .type = OT_FN, .fn = job_fn_percentile_list,
	 .value = "up to 20 numbers 0..100, ':'-separated",
	 .def = "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99",
	 .help = "The latency percentiles to report, instead of fio's "
		 "default list (sorted; a 0 ends the list, as in fio).  "
		 "They are printed with as many digits after the point as "
		 "the most precise value was written with."},
	{.name = "writefua", .type = OT_BOOL, FIELD(write_fua),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Every write has Force Unit Access: as sync=1, the write "
		 "completes once its data is on flash, not in the drive's "
		 "write buffer."},
	{.name = "readfua", .type = OT_BOOL, FIELD(read_fua),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Accepted, no effect: FUA on a read asks for data from the "
		 "medium, not a cache, and the simulated drive ignores it (a "
		 "page its write buffer holds in part is merged and drained "
		 "before a read of it is served; a read may take a page from "
		 "read-ahead, or the page a read of part of it brought in)."},
	{.name = "num_range", .type = OT_U32, FIELD(num_range), .min = 1,
	 .max = 256, .value = "integer 1..256", .def = "1",
	 .help = "Trim ranges per trim command (io_uring_cmd): each command "
		 "carries this many of the job's trims, each of its own size "
		 "at its own offset, and completes when the last of them "
		 "has; it counts as one I/O of their total size.  Only for "
		 "trim-only jobs (rw=trim, randtrim), as in fio."},
	{.name = "write_mode", .type = OT_FN, .fn = job_fn_write_mode,
	 .value = "write, zeroes, uncor, verify, zone_append; or "
		  "MODE/PCT:MODE/PCT:... adding up to 100 (a PCT left out "
		  "shares the rest; not zone_append)",
	 .def = "write",
	 .help = "The command a write becomes (io_uring_cmd); it still "
		 "counts as a write, as in fio.  zeroes (Write Zeroes) is a "
		 "trim: the drive reads zeros after a trim and programs "
		 "nothing; uncor (Write Uncorrectable) is a trim too: the "
		 "drive drops the pages' mapping without programming, but "
		 "reads then return zeros, not an error; verify is a read of "
		 "the range (the drive reads and checks the medium).  A mix "
		 "picks each write's command in turn so that the counts "
		 "keep to the percentages.  zone_append (alone, with "
		 "zonemode=zbd): each write is a Zone Append to its zone's "
		 "start (on a zoned drive; emulated zones take it as a "
		 "write at the write pointer, where an append lands)."},
	{.name = "sg_write_mode", .type = OT_FN, .fn = job_fn_sg_write_mode,
	 .value = "write, write_and_verify, verify, write_same, same, "
		  "write_same_ndob, write_stream, verify_bytchk_00, "
		  "verify_bytchk_01, verify_bytchk_11",
	 .def = "write",
	 .help = "The SCSI command a write becomes (sg engine), as the "
		 "drive does it: write, write_same(_ndob), write_stream: a "
		 "write of the whole range; write_and_verify (verify): a "
		 "write, then a read of the range, the command completing "
		 "after both; verify_bytchk_*: a read of the range."},
	{.name = "random_sequence_stride", .type = OT_BOOL,
	 FIELD(sequence_stride), .value = "boolean (a bare key means 1)",
	 .def = "0",
	 .help = "With random_distribution=sequence: 0 repeats the block "
		 "indices as they are; 1 shifts each new round of them by "
		 "their count (2,0,1 then 5,3,4, ...), as fio, until a block "
		 "lies past the region's end, which ends the pass."},
	{.name = "verify_write_sequence", .type = OT_BOOL,
	 FIELD(verify_write_sequence),
	 .value = "boolean (a bare key means 1)", .def = "1",
	 .help = "Accepted: the host's record is shared by every job (each "
		 "page's latest write, whoever wrote it), so writes of "
		 "other jobs never fail a check, which is what fio's 0 is "
		 "for; a stale copy of a page is always an error (it is the "
		 "FTL's)."},

	/* traces (docs/traces.md) */
	{.name = "read_iolog", .type = OT_FN, .fn = job_fn_read_iolog,
	 .value = "a trace file: fio's iolog (version 2 or 3) or a blktrace "
		  "file, plain or gzip-compressed", .def = "none",
	 .help = "Replay the trace instead of drawing I/O: its reads, writes, "
		 "trims and syncs in its order, at offsets in the job's file "
		 "(its one file, or the drive up to offset + size; offset= "
		 "does not move them, as in fio; every file the trace names is "
		 "that one, as fio's replay_redirect makes it).  A request "
		 "waits for the trace's gap after the one before it, as fio "
		 "waits, and completions are reaped while it waits "
		 "(replay_no_stall=1: no waiting, as fast as iodepth allows); a "
		 "version 2 log's wait waits until that many ms after the job "
		 "started, as fio does.  The trace is opened when the job "
		 "starts (an earlier job may record it) and read as it goes, "
		 "in constant memory; loops= replays it again.  Other formats: "
		 "ssdlab trace convert."},
	{.name = "write_iolog", .type = OT_FN, .fn = job_fn_write_iolog,
	 .value = "a file name", .def = "none",
	 .help = "Record every I/O the job issues, as fio does: an iolog "
		 "version 3 (issue time in microseconds since the job "
		 "started, file, action, offset, length), which read_iolog here "
		 "and real fio replay.  The file in the log is named NAME.0.0, "
		 "as fio names a job's file; offsets are in the job's one file, "
		 "or the drive's (offset= included), as fio's are in the file "
		 "or device.  It is written from the job's start to its end."},
	{.name = "replay_no_stall", .type = OT_BOOL, FIELD(replay_no_stall),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "read_iolog: ignore the trace's times, issue each request as "
		 "soon as the queue has room."},
	{.name = "replay_time_scale", .type = OT_U32, FIELD(replay_time_scale),
	 .min = 1, .max = UINT32_MAX, .value = "integer >= 1 (percent)",
	 .def = "100",
	 .help = "read_iolog: the trace's gaps last gap x 100 / this (200: "
		 "twice as fast)."},
	{.name = "replay_align", .type = OT_FN, .fn = job_fn_replay_align,
	 FIELD(replay_align), .value = "a power of 2 in bytes", .def = "none",
	 .help = "read_iolog: each offset is aligned down to this."},
	{.name = "replay_scale", .type = OT_U32, FIELD(replay_scale), .min = 1,
	 .max = UINT32_MAX, .value = "integer >= 1", .def = "1",
	 .help = "read_iolog: each offset is divided by this (a trace in "
		 "sectors of a larger unit)."},
	{.name = "replay_skip", .type = OT_FN, .fn = job_fn_replay_skip,
	 .value = "a list of read, write, trim, sync", .def = "none",
	 .help = "read_iolog: leave out these actions of the trace (sync also "
		 "leaves out datasync)."},

	/* accepted, no effect on a simulated drive: grouped by what they
	 * concern (job_ne_groups[] gives each group's reason); the report lists
	 * the ones a job took */
#define NE(n, a, g, f, v) {.name = n, .alias = a, .type = OT_NOEFFECT, \
			   .idx = g, .fn = f, .value = v}
#define NE_B(n, g) NE(n, NULL, g, job_ne_bool, "boolean")
#define NE_T(n, g) NE(n, NULL, g, job_ne_text, "text")
#define NE_S(n, g) NE(n, NULL, g, job_ne_size, "size")
#define NE_C(n, g, v) NE(n, NULL, g, job_ne_choice, v)
#define NE_CA(n, g, v) {.name = n, .type = OT_NOEFFECT, .idx = g, \
			.fn = job_ne_choice, .min = NE_ARG, .value = v}
#define NE_U(n, g) NE(n, NULL, g, job_ne_uint, "integer")
#define NE_UR(n, g, lo, hi, v) {.name = n, .type = OT_NOEFFECT, .idx = g, \
				.fn = job_ne_uint, .min = lo, .max = hi, \
				.value = v}
#define NE_UL(n, g, hi, v) {.name = n, .type = OT_NOEFFECT, .idx = g, \
			    .fn = job_ne_uint_list, .max = hi, .value = v}
	/* the engine and its options */
	{.name = "ioengine", .type = OT_NOEFFECT, .idx = NEG_ENGINE,
	 .fn = job_ne_text, .value = "an engine name",
	 .help = "ssdlab is the engine: it keeps iodepth I/Os in flight as "
		 "an asynchronous engine (libaio, io_uring) would.  With a "
		 "synchronous engine fio would keep only one; set iodepth=1 "
		 "to model that."},
	NE_UL("cmdprio_percentage", NEG_ENGINE, 100, "integer 0..100[,...]"),
	NE_UL("cmdprio_class", NEG_ENGINE, 3, "integer 0..3[,...]"),
	NE_UL("cmdprio_hint", NEG_ENGINE, 0, "integer[,...]"),
	NE_UL("cmdprio", NEG_ENGINE, 7, "integer 0..7[,...]"),
	NE_T("cmdprio_bssplit", NEG_ENGINE),
	NE_B("fixedbufs", NEG_ENGINE),
	NE_U("nonvectored", NEG_ENGINE),
	NE_U("force_async", NEG_ENGINE),
	NE_B("registerfiles", NEG_ENGINE),
	NE_B("sqthread_poll", NEG_ENGINE),
	NE_U("sqthread_poll_cpu", NEG_ENGINE),
	NE_C("cmd_type", NEG_ENGINE, "nvme, bsg"),
	NE_U("cdb_len", NEG_ENGINE),
	NE_B("hipri", NEG_ENGINE),
	NE_B("userspace_reap", NEG_ENGINE),
	NE_UR("hipri_percentage", NEG_ENGINE, 0, 100, "integer 0..100"),
	NE_B("nowait", NEG_ENGINE),
	NE_U("uncached", NEG_ENGINE),
	NE_B("atomic", NEG_ENGINE),
	NE_B("libaio_vectored", NEG_ENGINE),
	NE_S("md_per_io_size", NEG_ENGINE),
	NE_U("pi_act", NEG_ENGINE),
	NE_T("pi_chk", NEG_ENGINE),
	NE_U("apptag", NEG_ENGINE),
	NE_U("apptag_mask", NEG_ENGINE),
	NE_UR("cpuload", NEG_ENGINE, 0, 100, "integer 0..100"),
	NE_U("cpuchunks", NEG_ENGINE),
	NE_C("cpumode", NEG_ENGINE, "noop, qsort"),
	NE_B("exit_on_io_done", NEG_ENGINE),
	NE_T("namenode", NEG_ENGINE),
	NE_T("hdfsdirectory", NEG_ENGINE),
	NE_UR("port", NEG_ENGINE, 0, 65535, "integer 0..65535"),
	NE_T("hostname", NEG_ENGINE),
	NE_T("interface", NEG_ENGINE),
	NE_U("ttl", NEG_ENGINE),
	NE_B("nodelay", NEG_ENGINE),
	NE("protocol", "proto", NEG_ENGINE, job_ne_choice,
	   "tcp, tcpv6, udp, udpv6, unix, vsock"),
	NE_B("listen", NEG_ENGINE),
	NE_B("pingpong", NEG_ENGINE),
	NE_S("window_size", NEG_ENGINE),
	NE_U("mss", NEG_ENGINE),
	NE_T("donorname", NEG_ENGINE),
	NE_U("inplace", NEG_ENGINE),
	NE_T("clustername", NEG_ENGINE),
	NE_T("rbdname", NEG_ENGINE),
	NE_T("clientname", NEG_ENGINE),
	NE_T("conf", NEG_ENGINE),
	NE_B("busy_poll", NEG_ENGINE),
	NE_B("touch_objects", NEG_ENGINE),
	NE_T("rbd_encryption_format", NEG_ENGINE),
	NE_T("rbd_encryption_passphrase", NEG_ENGINE),
	NE_T("pool", NEG_ENGINE),
	NE_T("cont", NEG_ENGINE),
	NE_S("chunk_size", NEG_ENGINE),
	NE_T("object_class", NEG_ENGINE),
	NE_B("skip_bad", NEG_ENGINE),
	NE_T("verb", NEG_ENGINE),
	NE_T("bindname", NEG_ENGINE),
	NE_C("stat_type", NEG_ENGINE, "stat, lstat, statx"),
	NE_T("http_host", NEG_ENGINE),
	NE_T("http_user", NEG_ENGINE),
	NE_T("http_pass", NEG_ENGINE),
	NE_C("https", NEG_ENGINE, "on, off, insecure"),
	NE_C("http_mode", NEG_ENGINE, "webdav, s3, swift"),
	NE_T("http_s3_region", NEG_ENGINE),
	NE_T("http_s3_key", NEG_ENGINE),
	NE_T("http_s3_keyid", NEG_ENGINE),
	NE_T("http_s3_security_token", NEG_ENGINE),
	NE_T("http_s3_sse_customer_key", NEG_ENGINE),
	NE_T("http_s3_sse_customer_algorithm", NEG_ENGINE),
	NE_T("http_s3_storage_class", NEG_ENGINE),
	NE_T("http_swift_auth_token", NEG_ENGINE),
	NE_U("http_verbose", NEG_ENGINE),
	NE_T("http_object_mode", NEG_ENGINE),
	NE_T("uri", NEG_ENGINE),
	NE_T("gpu_dev_ids", NEG_ENGINE),
	NE_C("cuda_io", NEG_ENGINE, "posix, cufile"),
	NE_T("rocm_io", NEG_ENGINE),
	NE_T("nfs_url", NEG_ENGINE),
	NE_T("program", NEG_ENGINE),
	NE_T("arguments", NEG_ENGINE),
	NE_U("grace_time", NEG_ENGINE),
	NE_B("std_redirect", NEG_ENGINE),
	NE_T("xnvme_async", NEG_ENGINE),
	NE_T("xnvme_sync", NEG_ENGINE),
	NE_T("xnvme_admin", NEG_ENGINE),
	NE_U("xnvme_dev_nsid", NEG_ENGINE),
	NE_T("xnvme_dev_subnqn", NEG_ENGINE),
	NE_T("xnvme_mem", NEG_ENGINE),
	NE_U("xnvme_iovec", NEG_ENGINE),
	NE_T("libblkio_driver", NEG_ENGINE),
	NE_T("libblkio_path", NEG_ENGINE),
	NE_T("libblkio_pre_connect_props", NEG_ENGINE),
	NE_U("libblkio_num_entries", NEG_ENGINE),
	NE_U("libblkio_queue_size", NEG_ENGINE),
	NE_T("libblkio_pre_start_props", NEG_ENGINE),
	NE_B("libblkio_vectored", NEG_ENGINE),
	NE_C("libblkio_wait_mode", NEG_ENGINE, "block, eventfd, loop"),
	NE_B("libblkio_force_enable_completion_eventfd", NEG_ENGINE),
	NE_B("no_completion_thread", NEG_ENGINE),
	NE_T("volume", NEG_ENGINE),
	NE_T("brick", NEG_ENGINE),

	/* the host page cache */
	{.name = "direct", .type = OT_NOEFFECT, .idx = NEG_CACHE,
	 .fn = job_ne_direct, .value = "boolean",
	 .help = "direct=1 bypasses the machine's page cache (page_cache in "
		 "the drive file); direct=0 goes through it, or, on a machine "
		 "without one, reaches the drive as with direct=1 and the "
		 "report says so."},
	{.name = "buffered", .type = OT_NOEFFECT, .idx = NEG_CACHE,
	 .fn = job_ne_direct, .value = "boolean",
	 .help = "The opposite of direct; buffered=1 is reported as "
		 "direct=0 is."},
	{.name = "invalidate", .type = OT_NOEFFECT, .idx = NEG_CACHE,
	 .fn = job_ne_bool, .value = "boolean"},
	NE_B("pre_read", NEG_CACHE),
	NE_CA("fadvise_hint", NEG_CACHE, "0, 1, sequential, random, noreuse"),
	NE_T("sync_file_range", NEG_CACHE),

	/* files and the file system */
	NE_T("replay_redirect", NEG_TRACE),
	NE_B("read_iolog_chunked", NEG_TRACE),
	NE_T("directory", NEG_FILES),
	NE_B("unique_filename", NEG_FILES),
	NE_C("filetype", NEG_FILES, "none, file, block, char"),
	NE_T("opendir", NEG_FILES),
	NE_CA("lockfile", NEG_FILES, "none, exclusive, readwrite"),
	NE_T("ioscheduler", NEG_FILES),
	NE_B("create_serialize", NEG_FILES),
	NE_B("create_fsync", NEG_FILES),
	NE_B("create_on_open", NEG_FILES),
	NE_B("allow_file_create", NEG_FILES),
	NE_B("allow_mounted_write", NEG_FILES),
	NE_B("unlink", NEG_FILES),
	NE_B("unlink_each_loop", NEG_FILES),
	NE_B("overwrite", NEG_FILES),
	NE_C("fallocate", NEG_FILES, "none, native, posix, keep, truncate, "
	     "0, 1"),

	/* host CPUs, scheduling and processes */
	{.name = "thread", .type = OT_NOEFFECT, .idx = NEG_CPU,
	 .fn = job_ne_bool, .value = "boolean"},
	NE_U("threads", NEG_CPU),
	NE_T("comm", NEG_CPU),
	NE("nice", NULL, NEG_CPU, job_ne_nice, "integer -20..19"),
	NE_UR("prio", NEG_CPU, 0, 7, "integer 0..7"),
	NE_UR("prioclass", NEG_CPU, 0, 3, "integer 0..3"),
	NE_U("priohint", NEG_CPU),
	NE("cpus_allowed", NULL, NEG_CPU, job_ne_cpus,
	   "CPU list such as 0-3,6"),
	NE_U("cpumask", NEG_CPU),
	NE_C("cpus_allowed_policy", NEG_CPU, "shared, split"),
	NE("numa_cpu_nodes", NULL, NEG_CPU, job_ne_cpus,
	   "node list such as 0-1,3"),
	NE_CA("numa_mem_policy", NEG_CPU, "default, prefer, bind, interleave, "
	      "local"),
	NE_T("cgroup", NEG_CPU),
	NE_U("cgroup_weight", NEG_CPU),
	NE_B("cgroup_nodelete", NEG_CPU),
	NE_T("exec_prerun", NEG_CPU),
	NE_T("exec_postrun", NEG_CPU),
	NE_U("uid", NEG_CPU),
	NE_U("gid", NEG_CPU),
	NE_U("gtod_cpu", NEG_CPU),

	/* the host's clock and the cost of statistics */
	NE_C("clocksource", NEG_CLOCK, "gettimeofday, clock_gettime, cpu"),
	NE_B("gtod_reduce", NEG_CLOCK),
	NE_U("job_start_clock_id", NEG_CLOCK),
	NE_B("disable_lat", NEG_CLOCK),
	NE_B("disable_clat", NEG_CLOCK),
	NE_B("disable_slat", NEG_CLOCK),
	NE("disable_bw_measurement", "disable_bw", NEG_CLOCK, job_ne_bool,
	   "boolean"),
	NE_B("disk_util", NEG_CLOCK),

	/* what the data buffers hold */
	NE_B("zero_buffers", NEG_BUFFERS),
	NE_B("refill_buffers", NEG_BUFFERS),
	NE_B("scramble_buffers", NEG_BUFFERS),
	{.name = "buffer_compress_percentage", .alias = "compress_percentage",
	 .type = OT_NOEFFECT, .idx = NEG_BUFFERS, .fn = job_ne_uint, .max = 100,
	 .value = "integer 0..100"},
	NE("buffer_compress_chunk", "compress_chunk", NEG_BUFFERS, job_ne_size,
	   "size"),
	NE_T("buffer_pattern", NEG_BUFFERS),
	NE_UR("dedupe_percentage", NEG_BUFFERS, 0, 100, "integer 0..100"),
	NE_C("dedupe_mode", NEG_BUFFERS, "repeat, working_set"),
	NE_UR("dedupe_working_set_percentage", NEG_BUFFERS, 0, 100,
	      "integer 0..100"),
	NE_B("dedupe_global", NEG_BUFFERS),

	/* host memory */
	{.name = "iomem", .alias = "mem", .type = OT_NOEFFECT,
	 .idx = NEG_MEMORY, .fn = job_ne_choice, .min = NE_ARG,
	 .value = "malloc, shm, shmhuge, mmap, mmaphuge, mmapshared, "
		  "cudamalloc"},
	NE("iomem_align", "mem_align", NEG_MEMORY, job_ne_size, "size"),
	NE_S("hugepage-size", NEG_MEMORY),
	NE_S("lockmem", NEG_MEMORY),

	/* values and reports */
	{.name = "description", .type = OT_NOEFFECT, .idx = NEG_OTHER,
	 .fn = job_ne_text, .value = "text",
	 .help = "Free text; fio only prints it."},
	{.name = "randrepeat", .type = OT_NOEFFECT, .idx = NEG_OTHER,
	 .fn = job_ne_bool, .value = "boolean",
	 .help = "Runs are always repeatable: the stream follows from "
		 "randseed or the run seed."},
	{.name = "allrandrepeat", .type = OT_NOEFFECT, .idx = NEG_OTHER,
	 .fn = job_ne_bool, .value = "boolean",
	 .help = "As randrepeat."},
	{.name = "block_error_percentiles", .type = OT_NOEFFECT,
	 .idx = NEG_OTHER, .fn = job_ne_bool, .value = "boolean",
	 .help = "fio's histogram of the trims it took until an erase block "
		 "failed, for raw flash (MTD) targets: behind an FTL no block "
		 "error reaches the host (worn-out blocks are retired, the drive "
		 "turns read-only), so there is nothing to count."},
	{.name = "unit_base", .type = OT_NOEFFECT, .idx = NEG_OTHER,
	 .fn = job_ne_choice, .value = "0, 1, 8",
	 .help = "fio's unit for reported rates (8 bytes, 1 bits, 0 "
		 "automatic); ssdlab's reports are in bytes, as fio's "
		 "default."},
	{.name = "kb_base", .type = OT_FN, .fn = job_fn_kb_base,
	 .value = "1024 or 1000", .def = "1024",
	 .help = "How size suffixes read, as in fio: with 1024, k/m/g (also "
		 "kB, MB) are powers of 1024 and KiB/MiB/GiB powers of 1000 "
		 "(fio's compatibility rule); with 1000 the other way round.  "
		 "It applies to the whole section it is in, wherever it "
		 "stands there, and is inherited from [global]."},
#undef NE
#undef NE_B
#undef NE_T
#undef NE_S
#undef NE_C
#undef NE_CA
#undef NE_U
#undef NE_UR
#undef NE_UL

#define UNSUP(n, a, why) {.name = n, .alias = a, .type = OT_UNSUP, .help = why}

	/* refused for now: fio's SPRandom preconditioning */
	UNSUP("sprandom", NULL, "SPRandom preconditioning (offsets chosen so "
	      "that one pass leaves the steady-state distribution of invalid "
	      "pages) is not modelled: precondition with a random "
	      "write job of two or more drive capacities"),
	UNSUP("spr_num_regions", NULL, "goes with sprandom"),
	UNSUP("spr_op", NULL, "goes with sprandom"),
	UNSUP("spr_cs", NULL, "goes with sprandom"),


	/* refused for now: pacing and the order of jobs */


	/* refused: merging traces (the job replays one) */
	UNSUP("merge_blktrace_file", NULL, "merge the traces first (blkparse "
	      "-d, or ssdlab trace convert of each and one file)"),
	UNSUP("merge_blktrace_scalars", NULL, "merge the traces first"),
	UNSUP("merge_blktrace_iters", NULL, "merge the traces first"),
#undef UNSUP
};

const int job_nopts = (int)(sizeof job_opts / sizeof job_opts[0]);
_Static_assert(sizeof job_opts / sizeof job_opts[0] <= JOB_MAX_OPTS,
	       "raise JOB_MAX_OPTS");
_Static_assert(JOB_MAX_OPTS <= SSD_JOB_NOEFFECT_WORDS * 64,
	       "raise SSD_JOB_NOEFFECT_WORDS");

int job_find_opt(const char *key)
{
	for (int i = 0; i < job_nopts; i++)
		if (!strcmp(job_opts[i].name, key) ||
		    (job_opts[i].alias && !strcmp(job_opts[i].alias, key)))
			return i;
	return -1;
}
