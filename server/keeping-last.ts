/**
 * A date formatter that keeps its last answer: `format` runs only when the time differs from the
 * last call's. A batch dates its 1,000 items within a few milliseconds, so most calls repeat the
 * one before. An invalid date's time (NaN) never matches, so `format` runs and throws as it would.
 */
export function keepingLast(format: (d: Date) => string): (d: Date) => string {
  let time = Number.NaN;
  let text = "";
  return (d) => {
    const t = d.getTime();
    if (t !== time) {
      text = format(d);
      time = t;
    }
    return text;
  };
}
