//! What crosses between the page and its workers as one flat list of numbers (a
//! `Float64Array`: every value exact, nothing to parse, moved rather than copied),
//! written and read back in one fixed order, a name as its length and its UTF-8 bytes: a
//! run's sample, from the worker that ran it to the one that summarises
//! ([`Flat::sample`]), and the page's copy of an ensemble or a sweep's result, from there
//! to the page ([`Flat::ensemble`], [`Flat::sweep`]: only what the page shows). The
//! page's wasm needs no serde reader or writer of these types (the samples' JSON weighed
//! about 5 KB gzipped, a reader of the results about 10 KB).

use retrystorm::ensemble::{Band, Count, Ensemble, Group, MetricSpread, Sample, Spread};
use retrystorm::sweep::{Point, SweepResult};

/// The list being written.
#[derive(Debug, Default, PartialEq)]
pub struct Flat(pub Vec<f64>);

impl Flat {
    fn count(&mut self, n: usize) {
        self.0.push(n as f64);
    }

    fn text(&mut self, s: &str) {
        self.count(s.len());
        self.0.extend(s.bytes().map(f64::from));
    }

    fn seed(&mut self, s: i64) {
        // In two exact halves (a seed may be any i64).
        self.0.push((s >> 32) as f64);
        self.0.push((s & 0xffff_ffff) as f64);
    }

    /// Writes a run's sample whole: its seed, every group's metrics by name (NaN for a
    /// missing value), its verdicts (1 held, 0 failed, -1 not judged) and its curves.
    pub fn sample(&mut self, s: &Sample) {
        self.seed(s.seed);
        self.count(s.groups.len());
        for g in &s.groups {
            self.count(g.len());
            for (name, v) in g {
                self.text(name);
                self.0.push(v.unwrap_or(f64::NAN));
            }
        }
        self.count(s.verdicts.len());
        for v in &s.verdicts {
            self.0.push(v.map_or(-1.0, |b| f64::from(u8::from(b))));
        }
        self.count(s.curves.len());
        for c in &s.curves {
            self.count(c.len());
            self.0.extend(c);
        }
    }

    /// Writes what the page shows of `e`: every figure's spread, the verdicts' counts,
    /// the seeds and the bands, and per-seed values of `metric` alone (the distribution
    /// plot's; `""` for none). The tables, texts, Markdown and charts read nothing else.
    pub fn ensemble(&mut self, e: &Ensemble, metric: &str) {
        self.text(&e.model);
        self.count(e.seeds.len());
        for &s in &e.seeds {
            self.seed(s);
        }
        self.count(e.groups.len());
        for g in &e.groups {
            self.text(&g.key);
            self.text(&g.name);
            self.count(g.metrics.len());
            for m in &g.metrics {
                self.text(&m.metric);
                match &m.spread {
                    Some(s) => self.0.extend([
                        1.0, s.n as f64, s.min, s.p5, s.p25, s.median, s.p75, s.p95, s.max, s.mean,
                        s.sd,
                    ]),
                    None => self.0.push(0.0),
                }
                let values: &[Option<f64>] = if m.metric == metric { &m.values } else { &[] };
                self.count(values.len());
                self.0.extend(values.iter().map(|v| v.unwrap_or(f64::NAN)));
            }
        }
        self.count(e.verdicts.len());
        for c in &e.verdicts {
            self.text(&c.name);
            self.0.extend([c.pass as f64, c.of as f64]);
        }
        self.count(e.bands.len());
        for b in &e.bands {
            self.text(&b.name);
            self.count(b.median.len());
            for series in [&b.p5, &b.median, &b.p95] {
                self.0.extend(series);
            }
        }
    }

    /// Writes what the page shows of a sweep's result: its points without per-seed values
    /// (the charts, the recommendation and the exports read spreads and counts alone).
    pub fn sweep(&mut self, r: &SweepResult) {
        self.count(r.paths.len());
        for p in &r.paths {
            self.text(p);
        }
        self.count(r.points.len());
        for p in &r.points {
            self.count(p.index);
            self.count(p.params.len());
            self.0.extend(&p.params);
            self.0.push(f64::from(u8::from(p.feasible)));
            self.0.push(f64::from(u8::from(p.pareto)));
            self.ensemble(&p.ensemble, "");
        }
        self.0.push(r.best.map_or(-1.0, |b| b as f64));
    }
}

/// Reads what a [`Flat`] wrote, in the same order.
pub struct Reader<'a> {
    list: &'a [f64],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader of the list.
    pub fn new(list: &'a [f64]) -> Reader<'a> {
        Reader { list, at: 0 }
    }

    /// True when every number was read, and no more (a list a [`Flat`] wrote).
    pub fn done(&self) -> bool {
        self.at == self.list.len()
    }

    fn num(&mut self) -> f64 {
        // Past the end: NaN, a count of 0; `done` then says the list was short.
        let v = self.list.get(self.at).copied().unwrap_or(f64::NAN);
        self.at += 1;
        v
    }

    fn count(&mut self) -> usize {
        // A count is a whole number (NaN reads as 0), and never more than the list holds.
        (self.num() as usize).min(self.list.len())
    }

    fn nums(&mut self, n: usize) -> Vec<f64> {
        // Past the end: NaNs (and `done` says the list was short).
        let v = self
            .list
            .get(self.at..self.at + n)
            .map_or_else(|| vec![f64::NAN; n], <[f64]>::to_vec);
        self.at += n;
        v
    }

    /// A value that may be missing (NaN).
    fn value(&mut self) -> Option<f64> {
        Some(self.num()).filter(|v| !v.is_nan())
    }

    fn text(&mut self) -> String {
        let n = self.count();
        let bytes = self.nums(n).iter().map(|&b| b as u8).collect();
        String::from_utf8(bytes).unwrap_or_default()
    }

    fn seed(&mut self) -> i64 {
        let hi = self.num() as i64;
        (hi << 32) | self.num() as i64
    }

    /// A sample as [`Flat::sample`] wrote it.
    pub fn sample(&mut self) -> Sample {
        let seed = self.seed();
        let mut groups = Vec::new();
        for _ in 0..self.count() {
            let mut metrics = Vec::new();
            for _ in 0..self.count() {
                metrics.push((self.text(), self.value()));
            }
            groups.push(metrics);
        }
        let mut verdicts = Vec::new();
        for _ in 0..self.count() {
            let v = self.num();
            verdicts.push((v >= 0.0).then_some(v == 1.0));
        }
        let mut curves = Vec::new();
        for _ in 0..self.count() {
            let n = self.count();
            curves.push(self.nums(n));
        }
        Sample {
            seed,
            groups,
            verdicts,
            curves,
        }
    }

    /// An ensemble as [`Flat::ensemble`] wrote it.
    pub fn ensemble(&mut self) -> Ensemble {
        let model = self.text();
        let mut seeds = Vec::new();
        for _ in 0..self.count() {
            seeds.push(self.seed());
        }
        let mut groups = Vec::new();
        for _ in 0..self.count() {
            let (key, name) = (self.text(), self.text());
            let mut metrics = Vec::new();
            for _ in 0..self.count() {
                let metric = self.text();
                let spread = (self.num() == 1.0).then(|| {
                    let f = self.nums(10);
                    Spread {
                        n: f[0] as usize,
                        min: f[1],
                        p5: f[2],
                        p25: f[3],
                        median: f[4],
                        p75: f[5],
                        p95: f[6],
                        max: f[7],
                        mean: f[8],
                        sd: f[9],
                    }
                });
                let mut values = Vec::new();
                for _ in 0..self.count() {
                    values.push(self.value());
                }
                metrics.push(MetricSpread {
                    metric,
                    spread,
                    values,
                });
            }
            groups.push(Group { key, name, metrics });
        }
        let mut verdicts = Vec::new();
        for _ in 0..self.count() {
            verdicts.push(Count {
                name: self.text(),
                pass: self.count(),
                of: self.count(),
                per_seed: Vec::new(),
            });
        }
        let mut bands = Vec::new();
        for _ in 0..self.count() {
            let name = self.text();
            let n = self.count();
            bands.push(Band {
                name,
                p5: self.nums(n),
                median: self.nums(n),
                p95: self.nums(n),
            });
        }
        Ensemble {
            model,
            seeds,
            groups,
            verdicts,
            bands,
        }
    }

    /// A sweep's result as [`Flat::sweep`] wrote it.
    pub fn sweep(&mut self) -> SweepResult {
        let mut paths = Vec::new();
        for _ in 0..self.count() {
            paths.push(self.text());
        }
        let mut points = Vec::new();
        for _ in 0..self.count() {
            let index = self.count();
            let n = self.count();
            points.push(Point {
                index,
                params: self.nums(n),
                feasible: self.num() == 1.0,
                pareto: self.num() == 1.0,
                ensemble: self.ensemble(),
            });
        }
        let best = self.num();
        SweepResult {
            paths,
            points,
            best: (best >= 0.0).then_some(best as usize),
        }
    }
}
