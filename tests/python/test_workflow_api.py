#!/usr/bin/python3
"""The Python package: every call produces the triples of docs/workflow-api.md (checked with
rdflib), numpy scalars and hostile values round-trip, misuse raises and records nothing.

Each case runs its snippet in a fresh interpreter (its own program execution and files) with
PROVIO_DIR in a fresh directory. Run with /usr/bin/python3 and PYTHONPATH=<build>/python.
"""
import math, os, shutil, subprocess, sys, tempfile, textwrap, unittest
from urllib.parse import quote

import rdflib
from rdflib import Literal, URIRef
from rdflib.namespace import RDF, RDFS, XSD

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import zstd_raw  # noqa: E402

PROV = rdflib.Namespace("http://www.w3.org/ns/prov#")
PIO = rdflib.Namespace("http://www.w3.org/ns/provio#")


class Run:
    """One snippet run: its stdout, stderr, exit code and the merged graph of its files."""

    def __init__(self, code, env=None, dir=None):
        self.dir = dir or tempfile.mkdtemp(prefix="provio-py-")
        e = dict(os.environ, PROVIO_DIR=os.path.join(self.dir, "prov"))
        e.update(env or {})
        p = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=self.dir, env=e,
                           capture_output=True, text=True, timeout=60)
        self.out, self.err, self.rc = p.stdout, p.stderr, p.returncode
        self.g = rdflib.Graph()
        for f in zstd_raw.raw_files(os.path.join(self.dir, "prov")):
            zstd_raw.parse(f, self.g)
        progs = list(self.g.subjects(RDF.type, PIO.Program))
        self.x = str(progs[0]) if len(progs) == 1 else None

    def cleanup(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def iri(self, suffix):
        return URIRef(self.x + suffix)

    def value(self, s, p):
        vals = list(self.g.objects(s, p))
        return vals[0] if len(vals) == 1 else vals


class WorkflowApiTest(unittest.TestCase):
    def run_code(self, code, env=None, ok=True):
        r = Run(code, env)
        self.addCleanup(r.cleanup)
        if ok:
            self.assertEqual(r.rc, 0, r.err)
        return r

    def assertTriple(self, r, s, p, o):
        self.assertIn((s, p, o), r.g, f"missing {s} {p} {o!r}")

    def kv(self, r, owner, link, node, key, value):
        self.assertTriple(r, owner, link, node)
        self.assertTriple(r, node, RDF.type, PIO.Parameter)
        self.assertTriple(r, node, PIO.key, Literal(key))
        self.assertEqual(list(r.g.objects(node, PIO.value)), [value], f"{node}")

    def test_every_call(self):
        r = self.run_code("""
            import pathlib, numpy as np, provio
            with provio.workflow("sweep \\"1\\"\\n<x>", campaign="camp"):
                provio.program_type("training")
                provio.properties(site="nersc")
                with provio.task("run") as run:
                    hp = provio.hyperparameters(
                        lr=np.float64(0.125), epochs=np.int64(-5), seed=np.uint64(2**64 - 1),
                        shuffle=np.bool_(False), title="mlp \\u03bb", big=-(10**30),
                        raw=b"\\xff\\x00"[:1], zero_d=np.array(7), data=pathlib.Path("in.bin"))
                    sel = provio.data_selection({"region": "north", "min events": 10})
                    run.input("in.bin", provio.hdf5("in.h5", "/g/d"))
                    run.parameters({"key with space/slash": 1.5}, batch=64)
                    with provio.task("epoch") as ep:
                        provio.metric("accuracy", np.float32(0.5), step=np.int32(1), stage="validation")
                        provio.metric(step=2, stage="train", accuracy=0.75, loss=float("inf"))
                        provio.dataset("train.h5", stage="training", name="train set")
                        provio.properties(note=2**64)
                    provio.model("ckpt.npz", config=hp, step=2, name="mlp")
                    run.use(sel)
                    run.results(final_accuracy=0.75)
                    run.output("ckpt.npz")
            provio.model(provio.hdf5("m.h5", "/weights", kind="group"))
            """)
        self.assertEqual(r.out, "", "provio printed to stdout")
        g, x = r.g, r.x
        self.assertIsNotNone(x)
        d = os.path.realpath(r.dir)
        f = lambda name: URIRef("file://" + quote(d + "/" + name))
        W, run, ep = r.iri("/workflow/1"), r.iri("/task/1"), r.iri("/task/2")
        X = URIRef(x)
        name = "sweep \"1\"\n<x>"
        self.assertTriple(r, W, RDF.type, PIO.Workflow)
        self.assertTriple(r, W, PIO.workflow, Literal(name))
        self.assertTriple(r, X, PIO.workflow, Literal(name))
        self.assertTriple(r, X, PIO.campaign, Literal("camp"))
        self.assertTriple(r, X, PIO.programType, URIRef("urn:provio:type:training"))
        self.kv(r, W, PIO.property, URIRef(str(W) + "/property/site"), "site", Literal("nersc"))
        self.assertEqual(set(g.subjects(RDF.type, PIO.Task)), {run, ep})
        self.assertTriple(r, ep, PIO.parentTask, run)
        self.assertTriple(r, run, PIO.inWorkflow, W)
        for t in (run, ep):
            self.assertEqual(len(list(g.objects(t, PROV.endedAtTime))), 1)

        hp, sel = r.iri("/config/1"), r.iri("/config/2")
        self.assertTriple(r, hp, RDF.type, PIO.HyperparameterSetting)
        self.assertTriple(r, sel, RDF.type, PIO.DataSelection)
        self.assertTriple(r, run, PROV.used, hp)
        self.assertTriple(r, run, PROV.used, sel)
        expect = {
            "lr": Literal("0.125", datatype=XSD.double),
            "epochs": Literal("-5", datatype=XSD.long),
            "seed": Literal("18446744073709551615", datatype=XSD.unsignedLong),
            "shuffle": Literal(False),
            "title": Literal("mlp \u03bb"),
            "big": Literal("-1000000000000000000000000000000", datatype=XSD.integer),
            "raw": Literal("\ufffd"),
            "zero_d": Literal("7", datatype=XSD.long),
            "data": f("in.bin"),
        }
        for k, v in expect.items():
            self.kv(r, hp, PIO.parameter, URIRef(str(hp) + "/" + k), k, v)
        self.assertEqual(len(list(g.objects(hp, PIO.parameter))), len(expect))
        self.kv(r, sel, PIO.parameter, URIRef(str(sel) + "/min%20events"), "min events",
                Literal("10", datatype=XSD.long))
        self.kv(r, run, PIO.parameter, URIRef(str(run) + "/parameter/key%20with%20space%2Fslash"),
                "key with space/slash", Literal("1.5", datatype=XSD.double))
        self.kv(r, run, PIO.result, URIRef(str(run) + "/result/final_accuracy"), "final_accuracy",
                Literal("0.75", datatype=XSD.double))
        self.kv(r, ep, PIO.property, URIRef(str(ep) + "/property/note"), "note",
                Literal("18446744073709551616", datatype=XSD.integer))
        self.assertTriple(r, run, PROV.used, f("in.bin"))
        self.assertTriple(r, run, PROV.used, URIRef(str(f("in.h5")) + "#/g/d"))
        self.assertTriple(r, f("ckpt.npz"), PROV.wasGeneratedBy, run)

        ms = list(g.subjects(RDF.type, PIO.Metric))
        self.assertEqual(len(ms), 3)
        got = sorted((str(r.value(m, PIO.metricName)), r.value(m, PIO.value).toPython(),
                      r.value(m, PIO.step).toPython(), str(r.value(m, PIO.stage))) for m in ms)
        self.assertEqual(got, [("accuracy", 0.5, 1, str(PIO.Validation)), ("accuracy", 0.75, 2, str(PIO.Training)),
                               ("loss", math.inf, 2, str(PIO.Training))])
        for m in ms:
            self.assertTriple(r, m, PROV.wasGeneratedBy, ep)
        models = list(g.subjects(RDF.type, PIO.ModelReference))
        self.assertEqual(len(models), 2)
        (mlp,) = [m for m in models if (m, RDFS.label, Literal("mlp")) in g]
        self.assertTriple(r, mlp, PIO.storedIn, f("ckpt.npz"))
        self.assertTriple(r, mlp, PIO.trainedWith, hp)
        self.assertTriple(r, mlp, PROV.wasGeneratedBy, run)
        self.assertTriple(r, mlp, PIO.step, Literal(2, datatype=XSD.long))
        (other,) = [m for m in models if m != mlp]
        self.assertTriple(r, other, PIO.storedIn, URIRef(str(f("m.h5")) + "#/weights"))
        self.assertTriple(r, URIRef(str(f("m.h5")) + "#/weights"), RDF.type, PIO.Group)
        (ds,) = list(g.subjects(RDF.type, PIO.DatasetReference))
        self.assertTriple(r, ds, PIO.stage, PIO.Training)
        self.assertTriple(r, ep, PROV.used, ds)
        self.assertTriple(r, ep, PROV.used, f("train.h5"))

    def test_misuse_raises_and_records_nothing(self):
        r = self.run_code("""
            import numpy as np, provio
            def expect(exc, fn, *a, **k):
                try:
                    fn(*a, **k)
                except exc as e:
                    print(type(e).__name__, e)
                    return
                raise SystemExit(f"no {exc.__name__} from {fn.__name__}{a}{k}")
            expect(provio.ProvioError, provio.workflow("w").close)          # close before open
            expect(provio.ProvioError, provio.metric, "loss", 1.0)          # outside a task
            expect(ValueError, provio.workflow, "")
            with provio.workflow("w"):
                expect(provio.ProvioError, provio.workflow("w2").open)      # two open
                t = provio.task("t").begin()
                expect(ValueError, provio.metric, "loss", float("nan"))
                expect(ValueError, provio.metric, step=1, ok=1.0, bad=np.float64("nan"))
                expect(TypeError, provio.metrics, {1: 0.5})
                expect(TypeError, provio.config, {1: "x"}, name="badkeys")
                expect(TypeError, provio.config, {("a",): "x"}, name="badkeys")
                expect(ValueError, provio.config, {"k": float("nan")}, name="nancfg")
                expect(TypeError, provio.config, {"k": object()}, name="objcfg")
                expect(TypeError, provio.config, {"k": np.zeros(3)}, name="arrcfg")
                expect(TypeError, provio.config, {"k": None}, name="nonecfg")
                expect(ValueError, provio.config, {"": 1}, name="emptykey")
                expect(ValueError, provio.config, {"a\\0b": 1}, name="nulkey")
                expect(ValueError, provio.config, kind="weird")
                expect(ValueError, provio.metric, "m", 1.0, stage="pretraining")
                expect(TypeError, provio.metric, "m", 1.0, step=1.5)
                expect(TypeError, provio.metric, "m", "high")
                expect(TypeError, provio.model, 42)
                expect(TypeError, provio.model, "x.npz", config="not a config")
                inner = provio.task("inner").begin()
                expect(provio.ProvioError, t.end)                            # has open subtask
                inner.end()
                expect(provio.ProvioError, inner.end)                        # ended twice
                t.end()
                expect(provio.ProvioError, t.end)
                expect(provio.ProvioError, t.results, x=1)                   # not open any more
                expect(provio.ProvioError, provio.metric, "late", 1.0)
                try:
                    with provio.task("raises"):
                        raise KeyError("boom")
                except KeyError:
                    pass
            expect(provio.ProvioError, provio.workflow("w").close)
            """, ok=False)
        self.assertEqual(r.rc, 0, r.err + r.out)
        lines = r.out.splitlines()
        self.assertEqual(len(lines), 27, r.out)
        self.assertIn("no workflow is open", lines[0])
        self.assertIn("outside a task", lines[1])
        self.assertIn("already open", lines[3])
        self.assertIn("has open subtasks", r.out)
        self.assertIn("not open on this thread", r.out)
        g = r.g
        # nothing of the refused calls
        self.assertEqual(len(list(g.subjects(RDF.type, PIO.Metric))), 0)
        self.assertEqual(len(list(g.subjects(RDF.type, PIO.Configuration))), 0)
        self.assertEqual(len(list(g.subjects(RDF.type, PIO.ModelReference))), 0)
        self.assertEqual(len(list(g.subjects(RDF.type, PIO.Workflow))), 1)
        tasks = {str(r.value(t, RDFS.label)): t for t in g.subjects(RDF.type, PIO.Task)}
        self.assertEqual(sorted(tasks), ["inner", "raises", "t"])
        for t in tasks.values():
            self.assertEqual(len(list(g.objects(t, PROV.endedAtTime))), 1)
        # a task that raised says which exception; the exception propagated
        self.kv(r, tasks["raises"], PIO.result, URIRef(str(tasks["raises"]) + "/result/error"), "error",
                Literal("KeyError"))

    def test_recording_off_keeps_the_api_working(self):
        r = self.run_code("""
            import provio
            with provio.workflow("w"):
                with provio.task("t") as t:
                    provio.metric("m", 1.0)
                    provio.hyperparameters(a=1)
                try:
                    t.end()
                except provio.ProvioError as e:
                    print("still checked:", e)
            """, env={"PROVIO_LEVEL": "off"})
        self.assertIn("still checked", r.out)
        self.assertEqual(len(r.g), 0)

    def test_campaign_across_jobs(self):
        """Two jobs of one campaign, one named by the API and one by the environment only (and a
        third naming both): their files together are one campaign graph."""
        a = self.run_code("""
            import provio
            with provio.workflow("simulate", campaign="camp"):
                provio.program_type("simulation")
            """)
        env = {"PROVIO_WORKFLOW": "analyse", "PROVIO_CAMPAIGN": "camp"}
        Run("import provio; provio.program_type('analysis')", env, dir=a.dir)
        Run("""import provio
with provio.workflow("renamed"):
    pass""", {"PROVIO_WORKFLOW": "from-env"}, dir=a.dir)
        g = rdflib.Graph()
        for f in zstd_raw.raw_files(os.path.join(a.dir, "prov")):
            zstd_raw.parse(f, g)
        q = """SELECT ?wf WHERE { ?run a provio:Program ; provio:campaign "camp" ; provio:workflow ?wf }"""
        got = sorted(str(row.wf) for row in g.query(q, initNs={"provio": PIO}))
        self.assertEqual(got, ["analyse", "simulate"])
        # the third: the environment named the program, the API its workflow run; both recorded
        (run,) = [r for r in g.subjects(PIO.workflow, Literal("renamed")) if (r, RDF.type, PIO.Program) in g]
        self.assertIn((run, PIO.workflow, Literal("from-env")), g)
        (wf,) = [w for w in g.subjects(RDF.type, PIO.Workflow) if (w, PIO.workflow, Literal("renamed")) in g]
        self.assertEqual(list(g.objects(wf, PIO.workflow)), [Literal("renamed")])

    def test_fork_child_names_the_parents_task(self):
        r = self.run_code("""
            import os, provio
            with provio.workflow("w"):
                with provio.task("parent task"):
                    pid = os.fork()
                    if pid == 0:
                        provio.metric("child", 1.0)               # in the inherited task
                        with provio.task("child task"):
                            provio.metric("grandchild", 2.0)
                        provio.flush()  # os._exit skips the exit handlers that flush
                        os._exit(0)
                    os.waitpid(pid, 0)
                    provio.metric("parent", 3.0)
            """)
        g = r.g
        progs = list(g.subjects(RDF.type, PIO.Program))
        self.assertEqual(len(progs), 2)
        (child,) = [p for p in progs if (p, PIO.parentRun, None) in g]
        parent = g.value(child, PIO.parentRun)
        ptask = URIRef(str(parent) + "/task/1")
        by_name = {str(g.value(m, PIO.metricName)): m for m in g.subjects(RDF.type, PIO.Metric)}
        self.assertEqual(sorted(by_name), ["child", "grandchild", "parent"])
        self.assertTriple(r, by_name["child"], PROV.wasGeneratedBy, ptask)
        self.assertTriple(r, by_name["parent"], PROV.wasGeneratedBy, ptask)
        ctask = g.value(by_name["grandchild"], PROV.wasGeneratedBy)
        self.assertTrue(str(ctask).startswith(str(child) + "/task/"), ctask)
        self.assertTriple(r, ctask, PIO.parentTask, ptask)
        self.assertTriple(r, ctask, PIO.inWorkflow, URIRef(str(parent) + "/workflow/1"))
        self.assertTriple(r, ctask, RDFS.label, Literal("child task"))

    def test_task_decorator(self):
        r = self.run_code("""
            import provio
            @provio.task("epoch")
            def epoch(i):
                provio.metric("loss", 1.0 / (i + 1), step=i)
                return i * 2
            with provio.task("train"):
                assert [epoch(i) for i in range(3)] == [0, 2, 4]
            """)
        g = r.g
        epochs = [t for t in g.subjects(RDF.type, PIO.Task) if (t, RDFS.label, Literal("epoch")) in g]
        self.assertEqual(len(epochs), 3)
        for t in epochs:
            self.assertEqual(str(g.value(g.value(t, PIO.parentTask), RDFS.label)), "train")
            self.assertEqual(len(list(g.subjects(PROV.wasGeneratedBy, t))), 1)

    def test_multiprocessing_children_are_recorded(self):
        r = self.run_code("""
            import multiprocessing as mp, provio
            def work(i):
                with provio.task(f"child {i}"):
                    provio.metric("x", float(i), step=i)
            if __name__ == "__main__":
                with provio.task("parent"):
                    ctx = mp.get_context("fork")
                    ps = [ctx.Process(target=work, args=(i,)) for i in range(3)]
                    for p in ps: p.start()
                    for p in ps: p.join()
            """)
        g = r.g
        self.assertEqual(len(list(g.subjects(RDF.type, PIO.Program))), 4)
        vals = sorted(r.value(m, PIO.value).toPython() for m in g.subjects(RDF.type, PIO.Metric))
        self.assertEqual(vals, [0.0, 1.0, 2.0])
        for m in g.subjects(RDF.type, PIO.Metric):
            task = g.value(m, PROV.wasGeneratedBy)
            parent = g.value(task, PIO.parentTask)
            self.assertEqual(str(g.value(parent, RDFS.label)), "parent")

    def test_threads_have_their_own_tasks(self):
        r = self.run_code("""
            import threading, provio
            errors = []
            def work(i):
                with provio.task(f"worker {i}"):
                    for s in range(100):
                        provio.metric("x", float(i), step=s)
            with provio.task("main") as main:
                ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
                for t in ts: t.start()
                for t in ts: t.join()
                worker = provio.task("x")
                # a task begun on another thread cannot be ended here
                th = threading.Thread(target=worker.begin); th.start(); th.join()
                try:
                    worker.end()
                except provio.ProvioError as e:
                    print(e)
            """)
        self.assertIn("not open on this thread", r.out)
        g = r.g
        ms = list(g.subjects(RDF.type, PIO.Metric))
        self.assertEqual(len(ms), 400)
        for m in ms:
            (task,) = list(g.objects(m, PROV.wasGeneratedBy))
            label = str(r.value(task, RDFS.label))
            self.assertEqual(label, "worker %d" % int(r.value(m, PIO.value).toPython()))
            self.assertNotIn((task, PIO.parentTask, None), g)  # threads do not inherit the stack


if __name__ == "__main__":
    unittest.main()
