//! Server-side rendering: a pool of JavaScript runtimes on dedicated threads (never on the actix
//! workers), each with the server bundle loaded, and a memo of finished renders keyed by a hash
//! of their input. `render(input) -> output` (the page's JSON); a failure is the caller's cue to fall back to a page
//! the client renders.

mod engine;

use std::path::Path;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;

use crossbeam_channel::{bounded, Receiver, Sender, TrySendError};
use quick_cache::sync::Cache;
use tokio::sync::oneshot;

use engine::Engine;
pub use engine::EngineLimits;
use engine::RenderError;

#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum SsrError {
    #[error("the render pool is saturated")]
    Busy,
    #[error("the render pool has stopped")]
    Stopped,
    #[error("render failed: {0}")]
    Failed(String),
    #[error("could not start the renderer: {0}")]
    Start(String),
}

/// The memo is bounded by bytes: a render weighs its length (and a little for its key).
#[derive(Debug, Clone, Copy)]
struct ByLength;

impl quick_cache::Weighter<u128, Arc<str>> for ByLength {
    fn weight(&self, _: &u128, output: &Arc<str>) -> u64 {
        output.len() as u64 + 64
    }
}

#[derive(Debug, Clone)]
pub struct SsrConfig {
    /// Rendering threads, each with its own runtime (one per core by default).
    pub threads: usize,
    /// Renders waiting beyond this many answer `Busy` at once.
    pub queue: usize,
    /// Bytes of finished renders kept in the memo.
    pub memo_bytes: u64,
    pub limits: EngineLimits,
}

impl Default for SsrConfig {
    fn default() -> Self {
        let threads = thread::available_parallelism().map_or(2, |n| n.get());
        Self {
            threads,
            // A crowd of distinct pages waits its turn (about 5 ms a render) rather than falls
            // back to a client-rendered page: up to 128 renders a thread.
            queue: threads * 128,
            memo_bytes: 32 << 20,
            limits: EngineLimits::default(),
        }
    }
}

/// The HTML of one render and whether it came from the memo.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// What the bundle's `render` answered (the page's JSON: body HTML and head).
    pub output: Arc<str>,
    pub memo_hit: bool,
}

#[derive(Debug, Default)]
pub struct Stats {
    pub hits: AtomicU64,
    pub misses: AtomicU64,
    pub failures: AtomicU64,
}

struct Job {
    input: String,
    reply: oneshot::Sender<Result<String, String>>,
}

/// How long a render waits for the same input's render under way before it renders its own.
pub const SAME_INPUT_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// The duty to render an input others may be waiting for.
type Rendering<'a> = quick_cache::sync::PlaceholderGuard<
    'a,
    u128,
    Arc<str>,
    ByLength,
    quick_cache::DefaultHashBuilder,
    quick_cache::sync::DefaultLifecycle<u128, Arc<str>>,
>;

pub struct Renderer {
    jobs: Sender<Job>,
    memo: Cache<u128, Arc<str>, ByLength>,
    pub stats: Stats,
    threads: usize,
    /// Render threads that hold a working runtime now.
    alive: Arc<AtomicUsize>,
}

/// Counts a render thread with a runtime as alive; a thread that ends, however (a panic
/// included), stops counting.
struct Alive {
    count: Arc<AtomicUsize>,
    counted: bool,
}

impl Alive {
    fn set(&mut self, alive: bool) {
        if alive != self.counted {
            if alive {
                self.count.fetch_add(1, Ordering::Relaxed);
            } else {
                self.count.fetch_sub(1, Ordering::Relaxed);
            }
            self.counted = alive;
        }
    }
}

impl Drop for Alive {
    fn drop(&mut self) {
        self.set(false);
    }
}

impl Renderer {
    /// Bytes the memo holds.
    pub fn memo_weight(&self) -> u64 {
        self.memo.weight()
    }

    /// Renders waiting for a thread.
    pub fn queue_len(&self) -> usize {
        self.jobs.len()
    }

    /// The render threads started.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The render threads alive with a working runtime (readiness: none means no page renders).
    pub fn threads_alive(&self) -> usize {
        self.alive.load(Ordering::Relaxed)
    }

    /// Reads the bundle file and starts the pool.
    pub fn from_file(path: &Path, config: SsrConfig) -> Result<Self, SsrError> {
        let bundle = std::fs::read_to_string(path)
            .map_err(|e| SsrError::Start(format!("{}: {e}", path.display())))?;
        Self::new(bundle, config)
    }

    /// Starts `config.threads` rendering threads, each loading `bundle`; fails when the bundle
    /// does not load.
    pub fn new(bundle: String, config: SsrConfig) -> Result<Self, SsrError> {
        let bundle: Arc<str> = bundle.into();
        let (jobs, queue) = bounded::<Job>(config.queue.max(1));
        let (ready_tx, ready_rx) = bounded::<Result<(), String>>(config.threads);
        let alive = Arc::new(AtomicUsize::new(0));
        for i in 0..config.threads.max(1) {
            let bundle = bundle.clone();
            let queue = queue.clone();
            let ready = ready_tx.clone();
            let limits = config.limits.clone();
            let alive = Alive {
                count: alive.clone(),
                counted: false,
            };
            thread::Builder::new()
                .name(format!("ssr-{i}"))
                .spawn(move || worker(&bundle, &limits, queue, ready, alive))
                .map_err(|e| SsrError::Start(e.to_string()))?;
        }
        drop(ready_tx);
        for _ in 0..config.threads.max(1) {
            match ready_rx.recv() {
                Ok(Ok(())) => {}
                Ok(Err(e)) => return Err(SsrError::Start(e)),
                Err(_) => return Err(SsrError::Start("a render thread died".into())),
            }
        }
        Ok(Self {
            jobs,
            memo: Cache::with_weighter(
                (config.memo_bytes / 32_768).max(16) as usize,
                config.memo_bytes.max(1),
                ByLength,
            ),
            stats: Stats::default(),
            threads: config.threads.max(1),
            alive,
        })
    }

    fn lookup(&self, input: &str) -> (u128, Option<Rendered>) {
        let key = xxhash_rust::xxh3::xxh3_128(input.as_bytes());
        let hit = self.memo.get(&key).map(|output| {
            self.stats.hits.fetch_add(1, Ordering::Relaxed);
            Rendered {
                output,
                memo_hit: true,
            }
        });
        (key, hit)
    }

    fn submit(&self, input: String) -> Result<oneshot::Receiver<Result<String, String>>, SsrError> {
        let (reply, rx) = oneshot::channel();
        match self.jobs.try_send(Job { input, reply }) {
            Ok(()) => Ok(rx),
            Err(TrySendError::Full(_)) => Err(SsrError::Busy),
            Err(TrySendError::Disconnected(_)) => Err(SsrError::Stopped),
        }
    }

    fn finish(
        &self,
        key: u128,
        result: Result<String, String>,
        waited_for: Option<Rendering<'_>>,
    ) -> Result<Rendered, SsrError> {
        match result {
            Ok(output) => {
                self.stats.misses.fetch_add(1, Ordering::Relaxed);
                let output: Arc<str> = output.into();
                match waited_for {
                    // Those waiting for the same input get it (gone if pushed out meanwhile).
                    Some(guard) => drop(guard.insert(output.clone())),
                    None => self.memo.insert(key, output.clone()),
                }
                Ok(Rendered {
                    output,
                    memo_hit: false,
                })
            }
            Err(e) => {
                self.stats.failures.fetch_add(1, Ordering::Relaxed);
                Err(SsrError::Failed(e))
            }
        }
    }

    /// Renders the input (a JSON document for the bundle's `render`), from the memo when the same
    /// input was rendered before.
    ///
    /// A render of an input already being rendered (a crowd on a page nobody has yet) waits for
    /// that one, at most [`SAME_INPUT_WAIT`], instead of rendering it again.
    pub async fn render(&self, input: String) -> Result<Rendered, SsrError> {
        let key = xxhash_rust::xxh3::xxh3_128(input.as_bytes());
        let asked =
            tokio::time::timeout(SAME_INPUT_WAIT, self.memo.get_value_or_guard_async(&key)).await;
        let waited_for = match asked {
            Ok(Ok(output)) => {
                self.stats.hits.fetch_add(1, Ordering::Relaxed);
                return Ok(Rendered {
                    output,
                    memo_hit: true,
                });
            }
            Ok(Err(guard)) => Some(guard),
            // Waited long enough for another's render (a failing or slow one): rendered here too.
            Err(_) => None,
        };
        let rx = self.submit(input)?;
        let result = rx.await.map_err(|_| SsrError::Stopped)?;
        self.finish(key, result, waited_for)
    }

    /// As [`Renderer::render`], blocking the calling thread (tests, benchmarks, CLI).
    pub fn render_blocking(&self, input: String) -> Result<Rendered, SsrError> {
        let (key, hit) = self.lookup(&input);
        if let Some(hit) = hit {
            return Ok(hit);
        }
        let rx = self.submit(input)?;
        let result = rx.blocking_recv().map_err(|_| SsrError::Stopped)?;
        self.finish(key, result, None)
    }
}

fn worker(
    bundle: &str,
    limits: &EngineLimits,
    queue: Receiver<Job>,
    ready: Sender<Result<(), String>>,
    mut alive: Alive,
) {
    let mut engine = match Engine::new(bundle, limits) {
        Ok(e) => {
            alive.set(true);
            let _ = ready.send(Ok(()));
            Some(e)
        }
        Err(e) => {
            let _ = ready.send(Err(e));
            return;
        }
    };
    drop(ready);
    let restart = |alive: &mut Alive| {
        let engine = Engine::new(bundle, limits)
            .map_err(|e| log::error!("ssr: restarting the runtime failed: {e}"))
            .ok();
        alive.set(engine.is_some());
        engine
    };
    while let Ok(job) = queue.recv() {
        if engine.is_none() {
            engine = restart(&mut alive);
        }
        let result = match &engine {
            Some(e) => e.render(&job.input),
            None => Err(RenderError::Broken("no runtime".to_string())),
        };
        let result = match result {
            Ok(output) => Ok(output),
            // An ordinary exception leaves the runtime as it was: keep it.
            Err(RenderError::Exception(e)) => Err(e),
            // An interrupted, out-of-memory or overflowing render may leave it in any state:
            // start the next job on a fresh one.
            Err(RenderError::Broken(e)) => {
                engine = None;
                Err(e)
            }
        };
        let _ = job.reply.send(result);
        // A fresh runtime at once, not at the next job: readiness counts the runtimes.
        if engine.is_none() {
            engine = restart(&mut alive);
        }
    }
}
