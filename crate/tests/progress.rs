//! Watched jobs: a [`Progress`] counts every item, and a job asked to stop returns what
//! it finished, which is always the plain result of the first items (seeds; a sweep's
//! seeds of every point, or its points when it has one seed), whenever the stop comes.

use retrystorm::classic;
use retrystorm::ensemble;
use retrystorm::progress::Progress;
use retrystorm::scenario::AnyScenario;
use retrystorm::sweep::Sweep;

fn article() -> AnyScenario {
    AnyScenario::Classic(classic::Scenario::article())
}

/// Runs `job` while another thread asks it to stop once `after` items are done (or
/// never, if the job ends first): where it stops depends on the threads' timing, so
/// the tests check what holds wherever it stops.
fn stop_after<T: Send>(after: usize, progress: &Progress, job: impl FnOnce() -> T + Send) -> T {
    let over = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            while !over.load(std::sync::atomic::Ordering::Relaxed) {
                if progress.done() >= after {
                    progress.stop();
                    return;
                }
                std::thread::yield_now();
            }
        });
        let out = job();
        over.store(true, std::sync::atomic::Ordering::Relaxed);
        out
    })
}

#[test]
fn a_whole_ensemble_counts_every_seed_and_equals_the_unwatched_run() {
    let seeds = ensemble::derive_seeds(4242, 40);
    let progress = Progress::new();
    let watched = ensemble::run_watched(&article(), &seeds, Some(2), &progress).unwrap();
    assert_eq!(progress.done(), 40);
    assert!(!progress.stopped());
    assert_eq!(watched, ensemble::run(&article(), &seeds, Some(1)).unwrap());
}

#[test]
fn a_stopped_ensemble_is_the_ensemble_of_its_first_seeds() {
    let seeds = ensemble::derive_seeds(4242, 3000);
    let before = Progress::new();
    before.stop();
    let none = ensemble::run_watched(&article(), &seeds, Some(2), &before).unwrap();
    assert!(none.seeds.is_empty());
    assert_eq!(before.done(), 0);

    for threads in [1, 2] {
        let progress = Progress::new();
        let part = stop_after(100, &progress, || {
            ensemble::run_watched(&article(), &seeds, Some(threads), &progress).unwrap()
        });
        let n = part.seeds.len();
        assert!(n <= progress.done(), "only finished seeds are kept");
        assert_eq!(part.seeds, seeds[..n]);
        assert_eq!(
            part,
            ensemble::run(&article(), &seeds[..n], Some(1)).unwrap(),
            "{n} seeds on {threads} threads"
        );
    }
}

#[test]
fn a_stopped_sweep_keeps_every_point_over_its_first_seeds() {
    let sweep = Sweep::from_json(
        r#"{"params": [{"path": "strategies[3].budget_pct", "values": [0, 10, 40, 100]}],
            "seeds": 300, "objective": {"goal": "max", "metric": "strategies[3].delivery_pct"}}"#,
    )
    .unwrap();
    let plan = sweep.plan(&article()).unwrap();
    let progress = Progress::new();
    let (finished, part) = stop_after(250, &progress, || {
        plan.run_watched(Some(2), &progress).unwrap()
    });
    let k = finished.seeds.len();
    assert_eq!(finished.seeds, plan.seeds[..k]);
    let params =
        |p: &retrystorm::sweep::Plan| p.points.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
    assert_eq!(params(&finished), params(&plan));
    assert_eq!(part, finished.run(Some(1)).unwrap());
    if k > 0 {
        assert_eq!(part.points.len(), 4);
    }
}

#[test]
fn a_stopped_sweep_of_one_seed_keeps_its_first_points() {
    let sweep = Sweep::from_json(
        r#"{"params": [{"path": "strategies[5].breaker_trip_failures",
                        "range": {"from": 50, "to": 2000, "steps": 200}}], "seeds": 1}"#,
    )
    .unwrap();
    let plan = sweep.plan(&article()).unwrap();
    let progress = Progress::new();
    let (finished, part) = stop_after(20, &progress, || {
        plan.run_watched(Some(2), &progress).unwrap()
    });
    assert_eq!(finished.seeds, plan.seeds);
    let j = part.points.len();
    let whole = plan.run(Some(1)).unwrap();
    for (p, q) in part.points.iter().zip(&whole.points) {
        assert_eq!(p.params, q.params);
        assert_eq!(p.ensemble, q.ensemble);
    }
    assert!(j <= progress.done());
}
