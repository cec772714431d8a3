/**
 * Sparkline bucketing: 60 buckets of 100 ms (about 6 s), each holding the
 * maximum value seen within it. The buffer is indexed by absolute bucket
 * number modulo its length; advancing zeroes the buckets nobody wrote, so a
 * quiet component decays to a flat line.
 */
export const SPARKLINE_BUCKETS = 60;
export const SPARKLINE_BUCKET_MS = 100;

/** Zeroes the buckets after `lastBucket` up to and including `nowBucket`; returns the new last bucket. */
export function advanceSparkline(spark: Float32Array, lastBucket: number, nowBucket: number): number {
  if (nowBucket <= lastBucket) return lastBucket;
  const n = spark.length;
  if (nowBucket - lastBucket >= n) {
    spark.fill(0);
  } else {
    for (let b = lastBucket + 1; b <= nowBucket; b++) spark[b % n] = 0;
  }
  return nowBucket;
}
