# report-cost-untimed.c: cost_per_op's per_op is cycles_in_calls over the
# calls of the classes with a timed call, and cycles_in_calls is their
# mean x count summed.
import json, sys
r = json.load(open(sys.argv[1]))
c = r["cost_per_op"]
rows = [x for x in r["op_classes"] if x["sampled"]]
est = sum(x["mean_cycles"] * x["count"] for x in rows)
timed = sum(x["count"] for x in rows)
print("calls", c["calls"], "timed", c["timed_calls"],
      "per_op_ok", abs(c["per_op"] * timed - c["cycles_in_calls"]) < 0.01 * timed,
      "sum_ok", abs(est - c["cycles_in_calls"]) <= 0.01 * len(rows) * timed + 1)
