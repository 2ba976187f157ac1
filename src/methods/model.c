/*
 * model.c -- analytic write amplification (WA) of garbage collection under
 * uniform random single-page overwrites: the numbers the simulator's GC is
 * checked against.  The derivations are in docs/model.md; in short:
 *
 * Setting.  U user pages live on N blocks of b pages that hold data;
 * alpha = U / (N b).  Every host write overwrites a uniformly chosen user
 * page, so it invalidates one uniformly chosen valid page.  When the drive
 * needs a free block it cleans a victim holding j valid pages: j copies,
 * and b - j pages of room for host data.  Over many cleanings
 *
 *     WA = (host + copies) / host = b / (b - E[j]).
 *
 * FIFO (least recently written), Desnoyers, "Analytic modeling of SSD write
 * performance", SYSTOR 2012.  Between a page's write and its block's
 * cleaning the whole log of N b pages is rewritten once, (1 - v) of it by
 * the host (v = E[j]/b), so a page survives with probability
 * (1 - 1/U)^{(1-v) N b} -> exp(-(1 - v)/alpha):
 *
 *     v = exp(-(1 - v)/alpha),  v = -alpha W0(-(1/alpha) e^{-1/alpha}).
 *
 * Every page of a victim saw the same window, so with finite b the count
 * j is Binomial(b, v): b changes the spread of j, not its mean, and the
 * finite-b FIFO WA is the same number (see ssd_model_waf_fifo_b).
 *
 * Greedy, mean-field limit N -> infinity with finite b (the d -> infinity
 * member of Van Houdt's class, SIGMETRICS 2013; the same fixed point as
 * Bux & Iliadis, Performance Evaluation 2010).  Let n_j be the number of
 * blocks with j valid pages and F the rate (per host write) at which
 * cleaned blocks come back full.  A block at level j drops to j - 1 at
 * rate j/U.  In steady state every level above the victim level carries
 * the same flux F: n_j j / U = F, so n_j = U F / j -- the harmonic
 * profile.  Greedy empties the lowest level; in the limit the victim count
 * is k or k - 1 for one k, with mean E = k - theta, theta in [0, 1] the
 * share of victims that dropped to k - 1 before they were taken.  Counting
 * the pages (sum j n_j = U gives F = 1/(b - E)) and the blocks
 * (sum n_j = N = U / (alpha b)) gives the one equation
 *
 *     (H_b - Ht(E)) / (b - E) = 1 / (alpha b),
 *
 * Ht the piecewise-linear interpolation of the harmonic numbers H_k
 * (Ht(E) = H_k - theta/k).  The left side, the mean of 1/ceil(t) over
 * t in (E, b], falls strictly as E rises, so the root is unique; it is
 * found by a scan for the bracketing integer k and a linear solve inside
 * [k - 1, k]: O(b) additions, microseconds for b = 4096.  As b -> infinity
 * H_b - H_E -> -ln v and the equation becomes FIFO's: greedy approaches
 * FIFO from below.
 *
 * Separated streams (flexible data placement): streams in blocks of their
 * own cost their own WA each, so the drive's is their write-weighted sum
 * (ssd_model_waf_separated; the oracle of docs/accuracy.md).
 *
 * Units: alpha is a fraction in (0, 1), b a page count, results are page
 * programs per host page write (>= 1).  Out-of-range arguments give NaN.
 */
#include "methods/model.h"

#include <math.h>

/* W0(x) near the branch point x = -1/e, in p = sqrt(2 (e x + 1)):
 * W = -1 + p - p^2/3 + 11/72 p^3 - 43/540 p^4 + 769/17280 p^5 - ...
 * (Corless et al., "On the Lambert W function", 1996, eq. 4.22). */
static double lambert_branch_series(double p)
{
	return -1.0 +
	       p * (1.0 +
		    p * (-1.0 / 3.0 +
			 p * (11.0 / 72.0 +
			      p * (-43.0 / 540.0 +
				   p * (769.0 / 17280.0 +
					p * (-221.0 / 8505.0))))));
}

/* W0 from e x + 1 given directly (it is the small quantity that matters
 * near the branch point; callers that can compute it without cancellation
 * should).  d = e x + 1 >= 0. */
static double lambert_w0_d(double x, double d)
{
	if (d < 0.0)
		return d > -1e-15 ? -1.0 : NAN;
	double p = sqrt(2.0 * d);
	/* Series error ~ p^7 / 60: below 1e-16 for p < 0.005. */
	if (p < 0.005)
		return lambert_branch_series(p);
	double w;
	if (p < 0.5) {
		w = lambert_branch_series(p);
	} else if (x < 3.0) {
		/* Winitzki's approximation, good to a few per cent. */
		double l = log1p(x);
		w = l * (1.0 - log1p(l) / (2.0 + l));
	} else {
		double l = log(x), ll = log(l);
		w = l - ll + ll / l;
	}
	/* Halley on f(w) = w e^w - x; cubic convergence from the guesses
	 * above takes 2-4 steps.  w + 1 >= ~p/2 > 0 here, no division by 0. */
	for (int i = 0; i < 50; i++) {
		double e = exp(w);
		double f = w * e - x;
		double wp1 = w + 1.0;
		double step = f / (e * wp1 - (w + 2.0) * f / (2.0 * wp1));
		w -= step;
		if (fabs(step) <= 4e-16 * (1.0 + fabs(w)))
			break;
	}
	return w;
}

double ssd_lambert_w0(double x)
{
	if (isnan(x))
		return NAN;
	if (x == 0.0)
		return 0.0;
	if (isinf(x))
		return x > 0 ? INFINITY : NAN;
	/* e x + 1 computed as fma to keep the digits that survive. */
	double d = fma(M_E, x, 1.0);
	return lambert_w0_d(x, d);
}

double ssd_model_waf_fifo(double alpha)
{
	if (!(alpha > 0.0 && alpha < 1.0))
		return NAN;
	/* x = -(1/a) e^{-1/a}; with t = 1/a - 1 > 0,
	 * e x + 1 = 1 - (1 + t) e^{-t} = -expm1(-t) - t e^{-t},
	 * which for small t (alpha near 1) is ~t^2/2: take the series there
	 * instead of subtracting two numbers near 1. */
	double t = 1.0 / alpha - 1.0;
	double x = -(1.0 / alpha) * exp(-1.0 / alpha);
	double d;
	if (t < 1e-2) {
		/* 1 - (1+t)e^{-t} = sum_{n>=2} (-1)^n (n-1) t^n / n!
		 * = t^2/2 - t^3/3 + t^4/8 - t^5/30 + t^6/144 - t^7/840
		 * + t^8/5760 - ...; truncation ~t^9/45360, 1e-16 relative. */
		d = t * t * (0.5 + t * (-1.0 / 3.0 + t * (1.0 / 8.0 +
		    t * (-1.0 / 30.0 + t * (1.0 / 144.0 + t * (-1.0 / 840.0 +
		    t * (1.0 / 5760.0)))))));
	} else {
		d = -expm1(-t) - t * exp(-t);
	}
	double v = -alpha * lambert_w0_d(x, d);
	double u = 1.0 - v; /* victim's invalid fraction, = host share */
	if (!(u > 0.0))
		return NAN;
	return 1.0 / u;
}

double ssd_model_waf_fifo_b(double alpha, uint32_t b)
{
	/* The victim's b pages each survived the same ~N b physical writes
	 * independently, so its valid count is Binomial(b, v) with the same v
	 * as above: the mean -- and so WA -- does not depend on b.  What b
	 * changes is the spread of the copies per cleaning.  The discrete
	 * (1 - 1/U)^k versus e^{-k/U} and the half-filled open block shift
	 * the result by O(1/U) and O(1/N), below any simulation's noise. */
	if (b == 0)
		return NAN;
	return ssd_model_waf_fifo(alpha);
}

double ssd_model_waf_greedy(double alpha, uint32_t b)
{
	if (!(alpha > 0.0 && alpha < 1.0) || b == 0)
		return NAN;
	if (b == 1)
		return 1.0; /* a block is either valid or empty: no copies */
	double c = 1.0 / (alpha * (double)b);
	/* G(k) = (H_b - H_k) / (b - k) falls from H_b / b at k = 0 to 1/b
	 * at k -> b; c lies above 1/b since alpha < 1.  Scan k downwards
	 * from b - 1 keeping S = H_b - H_k, and stop at the first k with
	 * G(k) >= c: the root lies in [k, k + 1]. */
	double s = 1.0 / (double)b; /* S at k = b - 1 */
	uint32_t k = b - 1;
	for (;;) {
		if (s >= c * (double)(b - k))
			break;
		if (k == 0)
			return 1.0; /* alpha <= 1/H_b: victims are empty */
		s += 1.0 / (double)k;
		k--;
	}
	/* Inside [k, k + 1], with m = k + 1 and E = m - theta:
	 *   H_b - Ht(E) = (H_b - H_m) + (m - E)/m = s + (k - E)/m
	 * (s = H_b - H_k = H_b - H_m + 1/m), so the equation is linear:
	 *   s + (k - E)/m = c (b - E)  =>  E = (s + k/m - c b) / (1/m - c).
	 * G(k) <= 1/m (a mean of values <= 1/m) and c <= G(k) give
	 * 1/m - c >= 0, with equality only if c = 1/b, excluded above. */
	double m = (double)k + 1.0;
	double den = 1.0 / m - c;
	double e = den > 0.0 ? (s + (double)k / m - c * (double)b) / den
			     : (double)k;
	if (e < (double)k)
		e = (double)k;
	if (e > m)
		e = m;
	return (double)b / ((double)b - e);
}

double ssd_model_waf_separated(int n, const double *share, const double *waf)
{
	/* Each stream's blocks hold only its data, so each GC copy belongs
	 * to one stream: the drive's programs per host write are the
	 * streams' own, weighted by their writes. */
	double sum = 0, wa = 0;
	for (int i = 0; i < n; i++) {
		if (!(share[i] >= 0) || !(waf[i] >= 1))
			return NAN;
		sum += share[i];
		wa += share[i] * waf[i];
	}
	return n > 0 && fabs(sum - 1) <= 1e-9 ? wa : NAN;
}
