//! The JavaScript engine behind the renderer: QuickJS through rquickjs. Everything engine-specific
//! lives in this module, so a V8 engine can replace it where V8 can be built.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rquickjs::{CatchResultExt, Context, Function, Runtime};

#[derive(Debug, Clone)]
pub struct EngineLimits {
    pub memory_bytes: usize,
    pub stack_bytes: usize,
    pub timeout: Duration,
}

/// How long a render may run before it is interrupted (the page then falls back to the empty
/// shell the browser renders): 500 ms in a release build, where a page renders in a few
/// milliseconds. A debug build (the tests, `cargo run`) gets 5 s: its renders are several times
/// slower, and on a loaded 2-core machine running the test suite's stores in parallel some ran past
/// 500 ms and fell back, failing page tests at random (a wall-clock limit in a test); a render that
/// never ends is still interrupted.
pub const RENDER_TIMEOUT: Duration = if cfg!(debug_assertions) {
    Duration::from_secs(5)
} else {
    Duration::from_millis(500)
};

impl Default for EngineLimits {
    fn default() -> Self {
        Self {
            memory_bytes: 128 << 20,
            stack_bytes: 1 << 20,
            timeout: RENDER_TIMEOUT,
        }
    }
}

/// How a render failed.
#[derive(Debug)]
pub enum RenderError {
    /// The bundle threw: the runtime is as it was.
    Exception(String),
    /// Interrupted, out of memory or out of stack: the runtime must be replaced.
    Broken(String),
}

/// One runtime with the server bundle loaded.
pub struct Engine {
    _runtime: Runtime,
    context: Context,
    /// Nanoseconds since `epoch` after which a running render is interrupted; 0 = no render.
    deadline: Arc<AtomicU64>,
    epoch: Instant,
    timeout: Duration,
}

impl Engine {
    /// Creates a runtime with the limits and evaluates the bundle, which must define a global
    /// `render(json) -> html`, then runs the promise jobs the evaluation left (the bundle loads
    /// its pages with dynamic imports, inlined but settled through promises), so the first render
    /// finds every page loaded.
    pub fn new(bundle: &str, limits: &EngineLimits) -> Result<Self, String> {
        let runtime = Runtime::new().map_err(|e| format!("runtime: {e}"))?;
        runtime.set_memory_limit(limits.memory_bytes);
        runtime.set_max_stack_size(limits.stack_bytes);
        let deadline = Arc::new(AtomicU64::new(0));
        let epoch = Instant::now();
        {
            let deadline = deadline.clone();
            runtime.set_interrupt_handler(Some(Box::new(move || {
                let d = deadline.load(Ordering::Relaxed);
                d != 0 && epoch.elapsed().as_nanos() as u64 > d
            })));
        }
        let context = Context::full(&runtime).map_err(|e| format!("context: {e}"))?;
        context.with(|ctx| {
            ctx.eval::<(), _>(bundle)
                .catch(&ctx)
                .map_err(|e| format!("loading the bundle: {e}"))?;
            while ctx.execute_pending_job() {}
            let _: Function = ctx
                .globals()
                .get("render")
                .catch(&ctx)
                .map_err(|e| format!("the bundle defines no render function: {e}"))?;
            Ok::<_, String>(())
        })?;
        Ok(Self {
            _runtime: runtime,
            context,
            deadline,
            epoch,
            timeout: limits.timeout,
        })
    }

    /// Calls `render(input)`; interrupted when it runs past the timeout.
    pub fn render(&self, input: &str) -> Result<String, RenderError> {
        let until = self.epoch.elapsed() + self.timeout;
        self.deadline
            .store(until.as_nanos() as u64, Ordering::Relaxed);
        let result = self.context.with(|ctx| {
            let render: Function = ctx.globals().get("render").map_err(|e| e.to_string())?;
            let html: String = render
                .call((input,))
                .catch(&ctx)
                .map_err(|e| e.to_string())?;
            // Settle promise jobs the render scheduled, if any.
            while ctx.execute_pending_job() {}
            Ok(html)
        });
        self.deadline.store(0, Ordering::Relaxed);
        result.map_err(|e: String| {
            let overran = self.epoch.elapsed() >= until;
            let lower = e.to_ascii_lowercase();
            if overran
                || lower.contains("interrupted")
                || lower.contains("out of memory")
                || lower.contains("stack overflow")
            {
                RenderError::Broken(e)
            } else {
                RenderError::Exception(e)
            }
        })
    }
}
