/*
 * driver.c -- a fuzz target without libFuzzer: main() feeds it each file
 * named on the command line (the committed corpus and regression inputs,
 * in `make test`) and prints "N inputs".  Exit 0; a target that finds a
 * defect aborts.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

int main(int argc, char **argv)
{
	int n = 0;
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			fprintf(stderr, "%s: cannot open it\n", argv[i]);
			return 2;
		}
		static uint8_t buf[1 << 20];
		size_t len = fread(buf, 1, sizeof buf, f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, len);
		n++;
	}
	printf("%d inputs\n", n);
	return 0;
}
