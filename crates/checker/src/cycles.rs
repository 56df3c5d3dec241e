//! Dependency cycles between committed operations, as Elle infers them for Kafka logs:
//! `ww` from T1 to T2 when T2's write directly follows T1's in a key's log, `wr` from T1 to
//! T2 when T2 read a value T1 wrote. A cycle of `ww` edges alone is `G0`; one with a `wr`
//! edge is `G1c`.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

use serde_json::json;

use crate::history::{History, Outcome};
use crate::queue::Index;
use crate::Anomaly;

/// A dependency's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Dep {
    /// Write-write: the second write follows the first in a key's log.
    Ww,
    /// Write-read: the second operation read what the first wrote.
    Wr,
}

impl Dep {
    fn name(self) -> &'static str {
        match self {
            Dep::Ww => "ww",
            Dep::Wr => "wr",
        }
    }
}

/// The dependency graph: per operation, its successors and the kind of each edge (`ww`
/// wins when both hold).
pub type Graph = BTreeMap<usize, BTreeMap<usize, Dep>>;

/// Builds the graph of the operations that took effect (acknowledged, or indeterminate but
/// read by someone).
pub fn graph(h: &History, ix: &Index) -> Graph {
    let committed = |op: usize| match h.ops[op].outcome {
        Outcome::Ok => true,
        Outcome::Info => h.ops[op].mops.iter().any(|m| match m {
            crate::history::Mop::Send { value, .. } => ix.readers.contains_key(value),
            _ => false,
        }),
        Outcome::Fail => false,
    };
    let mut g = Graph::new();
    let mut edge = |a: usize, b: usize, d: Dep| {
        if a != b {
            let e = g.entry(a).or_default().entry(b).or_insert(d);
            *e = (*e).min(d);
        }
    };
    let mut keys: Vec<_> = ix.log.keys().copied().collect();
    keys.sort();
    for key in keys {
        let mut prev: Option<usize> = None;
        for vals in ix.log[&key].values() {
            // An offset with several values is an anomaly reported elsewhere; its order
            // says nothing.
            let [v] = vals.iter().copied().collect::<Vec<_>>()[..] else {
                continue;
            };
            let Some(&w) = ix.writer.get(&v) else {
                continue;
            };
            if !committed(w) {
                continue;
            }
            if let Some(p) = prev {
                edge(p, w, Dep::Ww);
            }
            prev = Some(w);
        }
    }
    let mut read: Vec<_> = ix.readers.iter().collect();
    read.sort();
    for (v, readers) in read {
        let Some(&w) = ix.writer.get(v) else { continue };
        if committed(w) {
            for r in readers {
                edge(w, *r, Dep::Wr);
            }
        }
    }
    g
}

/// Reports `G0` (a cycle of `ww` edges) and `G1c` (a cycle with a `wr` edge), one cycle per
/// strongly connected component.
pub fn cycles(h: &History, ix: &Index, out: &mut Vec<Anomaly>) {
    let g = graph(h, ix);
    let ww: Graph = g
        .iter()
        .map(|(a, next)| {
            let only: BTreeMap<usize, Dep> = next
                .iter()
                .filter(|(_, d)| **d == Dep::Ww)
                .map(|(b, d)| (*b, *d))
                .collect();
            (*a, only)
        })
        .collect();
    for scc in components(&ww) {
        let start = *scc.iter().next().expect("non-empty");
        let first = ww[&start].keys().find(|b| scc.contains(b)).copied();
        if let Some(cycle) = first.and_then(|b| path(&ww, &scc, b, start)) {
            out.push(report("G0", &g, start, &cycle));
        }
    }
    for scc in components(&g) {
        let wr = scc.iter().find_map(|a| {
            g[a].iter()
                .find(|(b, d)| **d == Dep::Wr && scc.contains(b))
                .map(|(b, _)| (*a, *b))
        });
        let Some((a, b)) = wr else { continue };
        if let Some(cycle) = path(&g, &scc, b, a) {
            out.push(report("G1c", &g, a, &cycle));
        }
    }
}

fn report(kind: &str, g: &Graph, start: usize, rest: &[usize]) -> Anomaly {
    let mut steps = Vec::new();
    let mut at = start;
    for next in rest {
        steps.push(json!({"from": at, "to": next, "dep": g[&at][next].name()}));
        at = *next;
    }
    Anomaly::new(kind, None, None, json!({"cycle": steps}))
}

/// The shortest path from `from` back to `to` inside `scc`, as the nodes after `to`:
/// `[from, ..., to]`.
fn path(g: &Graph, scc: &BTreeSet<usize>, from: usize, to: usize) -> Option<Vec<usize>> {
    let mut parent: HashMap<usize, usize> = HashMap::new();
    let mut queue = VecDeque::from([from]);
    let mut seen = BTreeSet::from([from]);
    while let Some(a) = queue.pop_front() {
        if a == to {
            let mut path = vec![a];
            let mut at = a;
            while let Some(p) = parent.get(&at) {
                path.push(*p);
                at = *p;
            }
            path.reverse();
            return Some(path);
        }
        for b in g.get(&a).into_iter().flat_map(BTreeMap::keys) {
            if scc.contains(b) && seen.insert(*b) {
                parent.insert(*b, a);
                queue.push_back(*b);
            }
        }
    }
    None
}

/// The strongly connected components of more than one node (Tarjan's, iterative).
fn components(g: &Graph) -> Vec<BTreeSet<usize>> {
    struct State {
        index: HashMap<usize, usize>,
        low: HashMap<usize, usize>,
        stack: Vec<usize>,
        on: BTreeSet<usize>,
        next: usize,
        out: Vec<BTreeSet<usize>>,
    }
    let mut s = State {
        index: HashMap::new(),
        low: HashMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    let succ = |a: usize| -> Vec<usize> {
        g.get(&a)
            .map(|m| m.keys().copied().collect())
            .unwrap_or_default()
    };
    for &root in g.keys() {
        if s.index.contains_key(&root) {
            continue;
        }
        // Frames: (node, its successors, the next successor to visit).
        let mut frames: Vec<(usize, Vec<usize>, usize)> = Vec::new();
        let visit = |s: &mut State, frames: &mut Vec<(usize, Vec<usize>, usize)>, a: usize| {
            s.index.insert(a, s.next);
            s.low.insert(a, s.next);
            s.next += 1;
            s.stack.push(a);
            s.on.insert(a);
            frames.push((a, succ(a), 0));
        };
        visit(&mut s, &mut frames, root);
        while let Some((a, next, i)) = frames.last_mut() {
            let a = *a;
            if *i < next.len() {
                let b = next[*i];
                *i += 1;
                if !s.index.contains_key(&b) {
                    visit(&mut s, &mut frames, b);
                } else if s.on.contains(&b) {
                    let low = s.low[&a].min(s.index[&b]);
                    s.low.insert(a, low);
                }
                continue;
            }
            frames.pop();
            if let Some((parent, _, _)) = frames.last() {
                let low = s.low[parent].min(s.low[&a]);
                s.low.insert(*parent, low);
            }
            if s.low[&a] == s.index[&a] {
                let mut scc = BTreeSet::new();
                while let Some(x) = s.stack.pop() {
                    s.on.remove(&x);
                    scc.insert(x);
                    if x == a {
                        break;
                    }
                }
                if scc.len() > 1 {
                    s.out.push(scc);
                }
            }
        }
    }
    s.out
}
