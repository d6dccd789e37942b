//===- render_json.cpp - heapprof report --format json --------------------===//
//
// Part of heapprof.  Prints a Report as one JSON document, format
// "heapprof-report" (docs/formats.md): the rows of the text report with
// exact numbers, streamed (llvm::json::OStream) so a profile of many
// contexts needs no second copy in memory.  A number the profile doesn't
// record is null, never a guess; a table it has no data for is null.
//
//===----------------------------------------------------------------------===//
#include "render.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace heapprof;
using llvm::json::OStream;

// Ratios and percentages with a fixed number of decimals ("62.5", not
// "62.499999999999993").
static void number(OStream &J, double V, int Decimals = 2) {
  if (!std::isfinite(V)) {
    J.value(nullptr);
    return;
  }
  char Buf[64];
  snprintf(Buf, sizeof(Buf), "%.*f", Decimals, V);
  J.rawValue(Buf);
}

void heapprof::jsonFrame(OStream &J, const Frame &F) {
  J.object([&] {
    J.attribute("function", F.Function);
    J.attribute("file", F.File);
    J.attribute("line", static_cast<int64_t>(F.Line));
    J.attribute("column", static_cast<int64_t>(F.Column));
    J.attribute("inlined", F.Inlined);
  });
}

static void optional(OStream &J, double V, bool Known) {
  if (Known)
    number(J, V);
  else
    J.value(nullptr);
}

// Key: what Write writes, or null when the profile has no such data.
template <typename WriteFn>
static void orNull(OStream &J, const char *Key, bool Known, WriteFn Write) {
  J.attributeBegin(Key);
  if (Known)
    Write();
  else
    J.value(nullptr);
  J.attributeEnd();
}

// A CONTEXT's fields and derived measures, of C (a context's counts, or
// a cold row's added up).
static void countsAndDerived(OStream &J, const Profile &P, const Counts &C) {
  for (unsigned F = 0; F < NumFields; F++) {
    Field Fl = static_cast<Field>(F);
    if (P.has(Fl))
      J.attribute(FieldNames[F], static_cast<int64_t>(C.get(Fl)));
    else
      J.attribute(FieldNames[F], nullptr);
  }
  Derived D = derive(C);
  J.attributeObject("derived", [&] {
    J.attributeBegin("accesses_per_object");
    number(J, D.AccessesPerObject);
    J.attributeEnd();
    J.attributeBegin("access_density");
    number(J, D.Density);
    J.attributeEnd();
    J.attributeBegin("lifetime_ms");
    number(J, D.LifetimeMs);
    J.attributeEnd();
    J.attributeBegin("lines_touched_per_object");
    optional(J, D.LinesTouched, D.LinesTouched >= 0);
    J.attributeEnd();
    J.attributeBegin("pages_touched_per_object");
    optional(J, D.PagesTouched, D.PagesTouched >= 0);
    J.attributeEnd();
    J.attributeBegin("line_utilization");
    optional(J, D.LineUtilization, D.LineUtilization >= 0);
    J.attributeEnd();
    J.attributeBegin("page_utilization");
    optional(J, D.PageUtilization, D.PageUtilization >= 0);
    J.attributeEnd();
    J.attributeBegin("malloc_cycles");
    optional(J, D.MallocCycles, D.MallocCycles >= 0);
    J.attributeEnd();
    J.attributeBegin("free_cycles");
    optional(J, D.FreeCycles, D.FreeCycles >= 0);
    J.attributeEnd();
  });
}

static void context(OStream &J, const Report &R, uint32_t I,
                    const TopRow *Row, size_t Rank) {
  const Profile &P = *R.P;
  const Context &Ctx = P.Contexts[I];
  J.object([&] {
    if (Row) {
      J.attribute("rank", static_cast<int64_t>(Rank));
      J.attributeBegin("value");
      number(J, Row->Value);
      J.attributeEnd();
      J.attributeBegin("percent");
      number(J, Row->Percent);
      J.attributeEnd();
    }
    J.attributeArray("stack", [&] {
      for (const Frame *F : Ctx.frames(P))
        jsonFrame(J, *F);
    });
    countsAndDerived(J, P, Ctx.C);
  });
}

static void summary(OStream &J, const Report &R) {
  const Profile &P = *R.P;
  auto Count = [&](const char *Key, Field F, uint64_t V) {
    if (P.has(F))
      J.attribute(Key, static_cast<int64_t>(V));
    else
      J.attribute(Key, nullptr);
  };
  J.attributeObject("summary", [&] {
    J.attribute("allocs", static_cast<int64_t>(P.Total.allocs()));
    J.attribute("bytes", static_cast<int64_t>(P.Total.bytes()));
    Count("frees", Field::frees, P.Total.frees());
    Count("live_objects", Field::live_objects, P.Total.live_objects());
    Count("live_bytes", Field::live_bytes, P.Total.live_bytes());
    J.attribute("accesses", static_cast<int64_t>(P.Total.accesses()));
    Count("temporary", Field::temporary, P.Total.temporary());
    J.attribute("contexts", static_cast<int64_t>(P.Contexts.size()));
    // Stacks that reached malloc_context_size (tag 12): null if unknown.
    if (P.StackLimit)
      J.attribute("stack_limit", static_cast<int64_t>(P.StackLimit));
    else
      J.attribute("stack_limit", nullptr);
    J.attribute("contexts_at_stack_limit",
                static_cast<int64_t>(P.contextsAtStackLimit()));
    // Whose allocator served (tag 13): null if the profile does not say.
    if (const char *Kind = P.allocatorName()) {
      J.attributeObject("allocator", [&] {
        J.attribute("kind", Kind);
        if (P.Allocator == Profile::AllocatorKind::Library)
          J.attribute("path", P.AllocatorPath);
      });
    } else {
      J.attribute("allocator", nullptr);
    }
    // Sampled mode: null if exact; else the rate (0: several).
    if (P.Sampled)
      J.attribute("sampled_bytes", static_cast<int64_t>(P.SampleBytes));
    else
      J.attribute("sampled_bytes", nullptr);
    if (P.Peak.Known) {
      J.attribute("peak_bytes", static_cast<int64_t>(P.Peak.Bytes));
      J.attribute("peak_ms", static_cast<int64_t>(P.Peak.Ms));
    } else {
      J.attribute("peak_bytes", nullptr);
      J.attribute("peak_ms", nullptr);
    }
    uint64_t Span = 0;
    for (const Process &Proc : P.Processes)
      Span = std::max(Span, Proc.LastMs);
    J.attribute("time_span_ms", static_cast<int64_t>(Span));
    J.attributeArray("processes", [&] {
      for (const Process &Proc : P.Processes)
        J.object([&] {
          J.attribute("pid", static_cast<int64_t>(Proc.Pid));
          J.attribute("program", Proc.Program);
          J.attribute("dumps", static_cast<int64_t>(Proc.Dumps));
          J.attribute("duplicate_dumps",
                      static_cast<int64_t>(Proc.DuplicateDumps));
          J.attribute("last_ms", static_cast<int64_t>(Proc.LastMs));
          J.attribute("evictions", static_cast<int64_t>(Proc.Evictions));
          if (Proc.Command.empty())
            J.attribute("command", nullptr);
          else
            J.attributeArray("command", [&] {
              for (const std::string &A : Proc.Command)
                J.value(A);
            });
          J.attribute("command_truncated", Proc.CommandTruncated);
          J.attributeArray("files", [&] {
            for (const std::string &F : Proc.Files)
              J.value(F);
          });
        });
    });
    J.attributeArray("modules", [&] {
      for (const Module &M : P.Modules)
        J.object([&] {
          J.attribute("path", M.Path);
          J.attribute("file", M.File);
          J.attribute("build_id", M.BuildId);
          J.attribute("main", M.Main);
          J.attribute("symbolized", M.Usable);
          J.attribute("addresses", static_cast<int64_t>(M.Addresses));
          J.attribute("unnamed", static_cast<int64_t>(M.Unnamed));
          if (M.Unloaded && !M.Loaded)
            J.attribute("unloaded_ms", static_cast<int64_t>(M.UnloadedMs));
          else
            J.attribute("unloaded_ms", nullptr);
        });
    });
  });
  J.attributeArray("missing", [&] {
    for (unsigned F = 0; F < NumFields; F++)
      if (!P.has(static_cast<Field>(F)))
        J.value(FieldNames[F]);
    if (!P.HaveBins)
      J.value("bins");
  });
}

static void percentAttr(OStream &J, const char *Key, double V) {
  J.attributeBegin(Key);
  number(J, V);
  J.attributeEnd();
}

static void classKeys(OStream &J, const OpClassKey &K) {
  J.attribute("op", K.Op);
  if (K.Op == "none")
    return;
  J.attribute("size", K.Size);
  J.attribute("block", K.Block == "-" ? std::string("none") : K.Block);
  J.attribute("phase", K.Phase);
}

// The allocator profiler's tables (docs/allocator-profiler.md): null when
// the profile has no such section.
// The cost sections' words may pass 2^63 - 1 (their sums are checked
// against 2^64 - 1 only: profile_model.cpp's hpo_add), so they are written
// unsigned, never as a negative int64.
static void costs(OStream &J, const Report &R) {
  orNull(J, "op_classes", R.OpClassInfo.Known, [&] {
    J.array([&] {
      for (const OpClassRow &C : R.OpClasses)
        J.object([&] {
          classKeys(J, C.K);
          J.attribute("class", static_cast<int64_t>(C.K.Class));
          J.attribute("count", static_cast<uint64_t>(C.Count));
          J.attribute("sampled", static_cast<uint64_t>(C.Sampled));
          J.attribute("cycles", static_cast<uint64_t>(C.Cycles));
          if (C.Sampled) {
            J.attributeBegin("mean_cycles");
            number(J, C.MeanCycles);
            J.attributeEnd();
            J.attribute("median_bucket", static_cast<int64_t>(C.MedianBucket));
          } else {
            J.attribute("mean_cycles", nullptr);
            J.attribute("median_bucket", nullptr);
          }
          percentAttr(J, "percent_calls", C.PercentCalls);
          percentAttr(J, "percent_cycles", C.PercentCycles);
          J.attributeArray("histogram", [&] {
            for (uint64_t V : C.Hist)
              J.value(static_cast<int64_t>(V));
          });
        });
    });
  });
  orNull(J, "cost_per_op", R.Cost.Known, [&] {
    const OpCost &C = R.Cost;
    J.object([&] {
      J.attribute("calls", static_cast<int64_t>(C.Calls));
      J.attribute("timed_calls", static_cast<int64_t>(C.TimedCalls));
      J.attributeBegin("cycles_in_calls");
      number(J, C.CallCycles);
      J.attributeEnd();
      if (!C.TimedCalls) {
        J.attribute("per_op", nullptr);
        J.attribute("faults", nullptr);
        J.attribute("per_op_with_faults", nullptr);
        return;
      }
      J.attributeBegin("per_op");
      number(J, C.PerOp);
      J.attributeEnd();
      if (!C.Faults) {
        J.attribute("faults", nullptr);
        J.attribute("per_op_with_faults", nullptr);
        return;
      }
      J.attributeObject("faults", [&] {
        J.attribute("in_calls", static_cast<int64_t>(C.FaultsInCalls));
        J.attribute("outside", static_cast<int64_t>(C.FaultsOutside));
        J.attribute("outside_cycles", static_cast<int64_t>(C.OutsideCycles));
        J.attributeBegin("cycles_each");
        number(J, C.FaultCycles);
        J.attributeEnd();
      });
      J.attributeBegin("per_op_with_faults");
      number(J, C.PerOpWithFaults);
      J.attributeEnd();
    });
  });
  orNull(J, "syscalls", R.SyscallInfo.Known, [&] {
    J.array([&] {
      for (const SyscallRow &S : R.Syscalls)
        J.object([&] {
          J.attribute("syscall", S.Syscall);
          classKeys(J, S.K);
          J.attribute("count", static_cast<uint64_t>(S.Count));
          J.attribute("bytes", static_cast<uint64_t>(S.Bytes));
          J.attribute("cycles", static_cast<uint64_t>(S.Cycles));
        });
    });
  });
  orNull(J, "pmu", R.PmuEvents.Present, [&] {
    J.object([&] {
      J.attribute("hardware", !R.PmuEvents.NoHardware);
      J.attributeArray("events", [&] {
        for (const std::string &E : R.PmuEvents.Events)
          J.value(E);
      });
      J.attributeArray("rows", [&] {
        for (const PmuRow &Row : R.Pmu)
          J.object([&] {
            classKeys(J, Row.K);
            J.attribute("samples", static_cast<int64_t>(Row.Samples));
            J.attributeObject("sums", [&] {
              for (size_t E = 0; E < Row.Sums.size(); E++)
                J.attribute(R.PmuEvents.Events[E],
                            static_cast<int64_t>(Row.Sums[E]));
            });
          });
      });
    });
  });
}

// The leak check at exit (tag 10), added over processes, and the live
// memory at exit it found still reachable: null without it.
static void leakCheck(OStream &J, const Report &R) {
  const LeakCheck &L = R.P->Leaks;
  orNull(J, "leak_check", L.Known, [&] {
    J.object([&] {
      J.attribute("objects", static_cast<int64_t>(L.Objects));
      J.attribute("root_bytes", static_cast<int64_t>(L.RootBytes));
      J.attribute("direct_objects", static_cast<int64_t>(L.DirectObjects));
      J.attribute("direct_bytes", static_cast<int64_t>(L.DirectBytes));
      J.attribute("indirect_objects", static_cast<int64_t>(L.IndirectObjects));
      J.attribute("indirect_bytes", static_cast<int64_t>(L.IndirectBytes));
      J.attribute("threads_running", static_cast<int64_t>(L.ThreadsRunning));
      J.attribute("reachable_objects",
                  static_cast<int64_t>(R.ReachableObjects));
      J.attribute("reachable_bytes", static_cast<int64_t>(R.ReachableBytes));
    });
  });
}

// The live heap over time, as recorded: null without it.
static void timeline(OStream &J, const Report &R) {
  const Timeline &T = R.P->Timeline;
  orNull(J, "timeline", T.Known, [&] {
    J.object([&] {
      J.attribute("pid", static_cast<int64_t>(T.Pid));
      J.attribute("bucket_ms", static_cast<int64_t>(T.BucketMs));
      J.attributeArray("buckets", [&] {
        for (const TimelineBucket &B : T.Buckets)
          J.object([&] {
            J.attribute("ms", static_cast<int64_t>(B.Ms));
            J.attribute("lowest", static_cast<int64_t>(B.Lowest));
            J.attribute("highest", static_cast<int64_t>(B.Highest));
            J.attribute("last", static_cast<int64_t>(B.Last));
          });
      });
    });
  });
}

// The peak's details (summary.peak_bytes and peak_ms are its headline):
// null without a peak.
static void peak(OStream &J, const Report &R) {
  const Peak &K = R.P->Peak;
  orNull(J, "peak", R.PeakInfo.Known, [&] {
    J.object([&] {
      J.attribute("bytes", static_cast<int64_t>(K.Bytes));
      J.attribute("block_bytes", static_cast<int64_t>(K.BlockBytes));
      J.attribute("objects", static_cast<int64_t>(K.Objects));
      J.attribute("ms", static_cast<int64_t>(K.Ms));
      J.attribute("contexts", static_cast<int64_t>(K.Contexts));
      J.attribute("pid", static_cast<int64_t>(K.Pid));
      J.attribute("processes", static_cast<int64_t>(K.Processes));
      J.attribute("threshold_bytes", static_cast<int64_t>(K.ThresholdBytes));
      J.attribute("snapshots", static_cast<int64_t>(K.Snapshots));
      J.attribute("unnamed_bytes", static_cast<int64_t>(R.PeakUnnamed));
      orNull(J, "timeline_above", R.PeakAboveBytes != 0, [&] {
        J.object([&] {
          J.attribute("bytes", static_cast<int64_t>(R.PeakAboveBytes));
          J.attribute("ms", static_cast<int64_t>(R.PeakAboveMs));
        });
      });
      J.attributeArray("top", [&] {
        for (const PeakRow &Row : R.Peak)
          J.object([&] {
            J.attributeArray("chain", [&] {
              for (const Frame &F : Row.Chain)
                jsonFrame(J, F);
            });
            J.attribute("peak_objects", static_cast<int64_t>(Row.Objects));
            J.attribute("peak_bytes", static_cast<int64_t>(Row.Bytes));
            percentAttr(J, "percent", Row.Percent);
            J.attribute("contexts", static_cast<int64_t>(Row.Contexts));
          });
      });
      const OverheadRows &O = R.Overhead;
      J.attributeBegin("overhead");
      if (!O.Known) {
        J.value(nullptr);
      } else {
        J.object([&] {
          J.attribute("requested", static_cast<int64_t>(O.Requested));
          J.attribute("blocks", static_cast<int64_t>(O.Blocks));
          J.attribute("internal_fragmentation", static_cast<int64_t>(O.Internal));
          J.attribute("headers", static_cast<int64_t>(O.Headers));
          J.attribute("rounding", static_cast<int64_t>(O.Rounding));
          J.attribute("blowup", static_cast<int64_t>(O.Blowup));
          J.attribute("external_fragmentation", static_cast<int64_t>(O.External));
          J.attribute("metadata", static_cast<int64_t>(O.Metadata));
          J.attribute("heap_mapped", static_cast<int64_t>(O.HeapMapped));
          J.attribute("heap_resident", static_cast<int64_t>(O.HeapResident));
          J.attribute("process_resident", static_cast<int64_t>(O.ProcessRss));
          orNull(J, "line_utilization", O.TouchedLines != 0, [&] {
            number(J, static_cast<double>(O.TouchedLineLiveBytes) /
                          static_cast<double>(64 * O.TouchedLines),
                   4);
          });
          orNull(J, "page_utilization", O.TouchedPages != 0, [&] {
            number(J, static_cast<double>(O.TouchedPageLiveBytes) /
                          static_cast<double>(4096 * O.TouchedPages),
                   4);
          });
          J.attribute("threads", static_cast<int64_t>(O.Threads));
          J.attributeObject("raw", [&] {
            for (const auto &KV : K.Overhead)
              J.attribute(KV.first, static_cast<int64_t>(KV.second));
          });
        });
      }
      J.attributeEnd();
    });
  });
}

void heapprof::renderJson(const Report &R, llvm::raw_ostream &OS) {
  const Profile &P = *R.P;
  OStream J(OS, 1);
  J.object([&] {
    J.attribute("format", "heapprof-report");
    J.attribute("version", JsonReportVersion);
    J.attributeObject("options", [&] {
      J.attribute("sort", sortKeyName(R.Opts.Sort));
      J.attribute("top", R.Opts.Top);
      J.attribute("depth", R.Opts.Depth);
      J.attribute("full", R.Opts.Full);
    });
    summary(J, R);

    J.attributeBegin("contexts");
    if (!R.TopInfo.Known) {
      J.value(nullptr);
    } else {
      J.array([&] {
        for (size_t I = 0; I < R.Top.size(); I++)
          context(J, R, R.Top[I].Context, &R.Top[I], I + 1);
      });
    }
    J.attributeEnd();

    J.attributeBegin("leaks");
    if (!R.LeakInfo.Known) {
      J.value(nullptr);
    } else {
      J.array([&] {
        for (const LeakRow &L : R.Leaks)
          J.object([&] {
            J.attributeArray("chain", [&] {
              for (const Frame &F : L.Chain)
                jsonFrame(J, F);
            });
            J.attribute("objects", static_cast<int64_t>(L.Objects));
            if (R.LeaksUnreachable || P.has(Field::live_bytes))
              J.attribute("bytes", static_cast<int64_t>(L.Bytes));
            else
              J.attribute("bytes", nullptr);
            // Of the unreachable objects and bytes, the indirect ones.
            orNull(J, "indirect_objects", R.LeaksUnreachable, [&] {
              J.value(static_cast<int64_t>(L.IndirectObjects));
            });
            orNull(J, "indirect_bytes", R.LeaksUnreachable, [&] {
              J.value(static_cast<int64_t>(L.IndirectBytes));
            });
            percentAttr(J, "percent", L.Percent);
            J.attribute("contexts", static_cast<int64_t>(L.Contexts));
          });
      });
    }
    J.attributeEnd();
    J.attribute("leaks_measure", R.LeaksUnreachable ? "unreachable" : "live");
    leakCheck(J, R);
    J.attributeArray("leaks_suppressed", [&] {
      for (size_t I = 0; I < R.LeaksSuppressed.size(); I++)
        J.object([&] {
          J.attribute("rule", "leak:" + R.Opts.Suppressions[I].Pattern);
          J.attribute("where", R.Opts.Suppressions[I].Where);
          J.attribute("objects",
                      static_cast<int64_t>(R.LeaksSuppressed[I].Objects));
          J.attribute("bytes", static_cast<int64_t>(R.LeaksSuppressed[I].Bytes));
          J.attribute("contexts",
                      static_cast<int64_t>(R.LeaksSuppressed[I].Contexts));
        });
    });

    auto BinCounts = [&](const BinRow &B) {
      J.attribute("allocs", static_cast<int64_t>(B.Allocs));
      J.attribute("bytes", static_cast<int64_t>(B.Bytes));
      J.attribute("frees", static_cast<int64_t>(B.Frees));
      J.attribute("kept", static_cast<int64_t>(B.Kept));
      J.attribute("kept_objects", static_cast<int64_t>(B.KeptObjects));
      percentAttr(J, "percent_allocs", B.PercentAllocs);
      percentAttr(J, "percent_bytes", B.PercentBytes);
    };
    J.attributeBegin("bins");
    if (!R.BinInfo.Known) {
      J.value(nullptr);
    } else {
      J.array([&] {
        for (const BinRow &B : R.Bins)
          J.object([&] {
            J.attribute("size", static_cast<int64_t>(B.Size));
            J.attribute("label", B.Size > 1024 ? std::string(">1024")
                                               : std::to_string(B.Size));
            BinCounts(B);
          });
      });
    }
    J.attributeEnd();
    // The sizes under BinShare summed (--top; all zeros when none were).
    J.attributeBegin("bins_omitted");
    if (!R.BinInfo.Known) {
      J.value(nullptr);
    } else {
      J.object([&] {
        J.attribute("sizes", static_cast<int64_t>(R.BinInfo.Omitted));
        BinCounts(R.BinsOmitted);
      });
    }
    J.attributeEnd();

    J.attributeArray("direct", [&] {
      for (const DirectRow &D : R.Direct)
        J.object([&] {
          J.attribute("function", D.Function);
          percentAttr(J, "percent", D.Percent);
          J.attribute("bytes", static_cast<int64_t>(D.Bytes));
          if (P.has(Field::live_bytes))
            J.attribute("kept_bytes", static_cast<int64_t>(D.KeptBytes));
          else
            J.attribute("kept_bytes", nullptr);
          J.attribute("calls", static_cast<int64_t>(D.Calls));
          for (int I = 0; I < 4; I++) {
            std::string Kept = std::string("kept_") + ClassNames[I];
            if (R.DirectClasses) {
              J.attribute(ClassNames[I], static_cast<int64_t>(D.Class[I]));
              J.attribute(Kept, static_cast<int64_t>(D.KeptClass[I]));
            } else {
              J.attribute(ClassNames[I], nullptr);
              J.attribute(Kept, nullptr);
            }
          }
        });
    });

    auto Edges = [&](const char *Key, const std::vector<CallEdge> &V) {
      J.attributeArray(Key, [&] {
        for (const CallEdge &E : V)
          J.object([&] {
            J.attribute("index", static_cast<int64_t>(E.Entry + 1));
            J.attribute("name", E.Name);
            J.attribute("bytes", static_cast<int64_t>(E.Bytes));
            J.attribute("calls", static_cast<int64_t>(E.Calls));
          });
      });
    };
    J.attributeArray("callgraph", [&] {
      for (const CallGraphEntry &E : R.CallGraph)
        J.object([&] {
          J.attribute("index", static_cast<int64_t>(E.Index));
          J.attribute("name", E.Name);
          J.attributeArray("members", [&] {
            for (const std::string &M : E.Members)
              J.value(M);
          });
          percentAttr(J, "percent", E.Percent);
          J.attribute("self_bytes", static_cast<int64_t>(E.SelfBytes));
          J.attribute("self_calls", static_cast<int64_t>(E.SelfCalls));
          J.attribute("total_bytes", static_cast<int64_t>(E.TotalBytes));
          J.attribute("total_calls", static_cast<int64_t>(E.TotalCalls));
          Edges("callers", E.Callers);
          Edges("callees", E.Callees);
          auto Omitted = [&](const char *Key, const EdgesOmitted &O) {
            J.attributeObject(Key, [&] {
              J.attribute("edges", static_cast<int64_t>(O.Edges));
              J.attribute("bytes", static_cast<int64_t>(O.Bytes));
              J.attribute("calls", static_cast<int64_t>(O.Calls));
            });
          };
          Omitted("callers_omitted", E.CallersOmitted);
          Omitted("callees_omitted", E.CalleesOmitted);
        });
    });

    J.attributeBegin("heap_utilization");
    if (!P.Util.Known) {
      J.value(nullptr);
    } else {
      const HeapUtilization &U = P.Util;
      auto Level = [&](const char *Key, uint64_t All, uint64_t Touched,
                       uint64_t Bytes, uint64_t Size) {
        J.attributeObject(Key, [&] {
          J.attribute("count", static_cast<int64_t>(All));
          J.attribute("touched", static_cast<int64_t>(Touched));
          J.attribute("live_bytes_on_touched", static_cast<int64_t>(Bytes));
          J.attributeBegin("utilization");
          optional(J, Touched ? static_cast<double>(Bytes) /
                                    static_cast<double>(Size * Touched)
                              : 0,
                   Touched != 0);
          J.attributeEnd();
        });
      };
      J.object([&] {
        Level("lines", U.Lines, U.TouchedLines, U.TouchedLineLiveBytes, 64);
        Level("pages", U.Pages, U.TouchedPages, U.TouchedPageLiveBytes, 4096);
        J.attribute("live_bytes", static_cast<int64_t>(U.LiveBytes));
        J.attribute("live_objects", static_cast<int64_t>(U.LiveChunks));
      });
    }
    J.attributeEnd();

    J.attributeBegin("false_sharing");
    if (!R.SharingInfo.Known) {
      J.value(nullptr);
    } else {
      const FalseSharing &FS = P.Sharing;
      J.object([&] {
        J.attribute("objects", static_cast<int64_t>(FS.Objects));
        J.attribute("unplaced", static_cast<int64_t>(FS.Unplaced));
        J.attribute("lines", static_cast<int64_t>(FS.Lines));
        J.attributeObject("passive", [&] {
          J.attribute("shared_lines", static_cast<int64_t>(FS.SharedLines));
        });
        J.attributeObject("active", [&] {
          J.attribute("lines", static_cast<int64_t>(FS.ActiveLines));
          J.attribute("events", static_cast<int64_t>(FS.ActiveEvents));
          J.attribute("same_object_events",
                      static_cast<int64_t>(FS.SameObjectEvents));
        });
        J.attribute("dropped_pairs", static_cast<int64_t>(FS.DroppedPairs));
        {
          J.attributeArray("pairs", [&] {
            for (const FalseSharingPair &FP : R.Sharing)
              J.object([&] {
                J.attribute("passive_lines", static_cast<int64_t>(FP.Lines));
                J.attribute("active_events",
                            static_cast<int64_t>(FP.ActiveEvents));
                J.attribute("active_lines",
                            static_cast<int64_t>(FP.ActiveLines));
                auto Stack = [&](const char *Key, uint32_t I) {
                  J.attributeArray(Key, [&] {
                    for (const Frame *F : P.Contexts[I].frames(P))
                      jsonFrame(J, *F);
                  });
                };
                Stack("a", FP.A);
                Stack("b", FP.B);
              });
          });
        }
        J.attribute("layout", FS.Layout == FalseSharing::Simulated ? "simulated"
                              : FS.Layout == FalseSharing::Real    ? "real"
                                                                   : "mixed");
      });
    }
    J.attributeEnd();

    J.attributeBegin("cold");
    if (!R.ColdInfo.Known) {
      J.value(nullptr);
    } else {
      J.array([&] {
        for (const ColdRow &Row : R.Cold)
          J.object([&] {
            J.attributeArray("chain", [&] {
              for (const Frame &F : Row.Chain)
                jsonFrame(J, F);
            });
            J.attribute("contexts", static_cast<int64_t>(Row.Contexts));
            countsAndDerived(J, *R.P, Row.C);
          });
      });
    }
    J.attributeEnd();
    J.attributeBegin("cold_uncounted");
    if (!R.ColdInfo.Known) {
      J.value(nullptr);
    } else {
      const auto &U = R.ColdUncounted;
      J.object([&] {
        J.attribute("contexts", static_cast<int64_t>(U.Contexts));
        J.attribute("objects", static_cast<int64_t>(U.Objects));
        J.attribute("bytes", static_cast<int64_t>(U.Bytes));
        J.attributeArray("modules", [&] {
          for (const std::string &M : U.Modules)
            J.value(M);
        });
      });
    }
    J.attributeEnd();

    costs(J, R);
    peak(J, R);
    timeline(J, R);
  });
  OS << "\n";
}
