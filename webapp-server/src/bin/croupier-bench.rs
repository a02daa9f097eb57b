//! `croupier-bench` (`make bench`): starts a `croupier-server` built with the `bench` feature on a
//! fresh SQLite database, loads it from this separate process over loopback with keep-alive
//! HTTP/1.1 connections, and prints requests per second, p50 and p99 per endpoint next to the
//! bare JSON ceiling route of the same binary. Later issues add their rows to [`ENDPOINTS`].

use anyhow::{Context as _, bail};
use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper_util::rt::TokioIo;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// (row name, path). The first row is the ceiling every other row is compared with.
const ENDPOINTS: &[(&str, &str)] = &[
    ("ceiling: bare JSON route", "/bench/ceiling"),
    ("metadata.getgeneralinfo", "/api/metadata.getgeneralinfo?locale=en&v=2.34"),
    ("SPA shell /", "/"),
    ("SPA shell /fr/gamehall", "/fr/gamehall"),
];

struct Options {
    server: String,
    web_dir: String,
    duration: Duration,
    connections: usize,
}

fn options() -> anyhow::Result<Options> {
    let mut o = Options {
        server: "target/benchmark/croupier-server".into(),
        web_dir: "miniapp/dist".into(),
        duration: Duration::from_secs(5),
        connections: 32,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().with_context(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--server" => o.server = value,
            "--web-dir" => o.web_dir = value,
            "--seconds" => o.duration = Duration::from_secs(value.parse().context("--seconds")?),
            "--connections" => o.connections = value.parse().context("--connections")?,
            _ => bail!("unknown option {flag} (known: --server --web-dir --seconds --connections)"),
        }
    }
    Ok(o)
}

struct Server {
    child: Child,
    port: u16,
    _dir: TempDir,
}

/// A temporary directory removed on drop (std only, to keep the bench's dependencies small).
struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status();
        let _ = self.child.wait();
    }
}

async fn start_server(o: &Options) -> anyhow::Result<Server> {
    let dir = TempDir(std::env::temp_dir().join(format!("croupier-bench-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0)?;
    let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
    let child = Command::new(&o.server)
        .env("CROUPIER_ADDR", format!("127.0.0.1:{port}"))
        .env("DATABASE_URL", format!("sqlite://{}/bench.db", dir.0.display()))
        .env("CROUPIER_WEB_DIR", &o.web_dir)
        .env("CROUPIER_LOG", "warn")
        .env_remove("REDIS_URL")
        .env_remove("CROUPIER_CONFIG")
        .stdout(Stdio::null())
        .spawn()
        .with_context(|| format!("cannot start {} (run `make bench`, which builds it)", o.server))?;
    let server = Server { child, port, _dir: dir };
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok((status, _)) = get_once(port, "/readyz").await
            && status == 200
        {
            return Ok(server);
        }
        if Instant::now() > deadline {
            bail!("the server did not become ready in 30 s");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

type Sender = hyper::client::conn::http1::SendRequest<Empty<Bytes>>;

async fn connect(port: u16) -> anyhow::Result<Sender> {
    let stream = tokio::net::TcpStream::connect(("127.0.0.1", port)).await?;
    stream.set_nodelay(true)?;
    let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    tokio::spawn(connection);
    Ok(sender)
}

async fn request(sender: &mut Sender, path: &str) -> anyhow::Result<(u16, usize)> {
    sender.ready().await?;
    let req = hyper::Request::get(path).header("host", "localhost:8080").body(Empty::<Bytes>::new())?;
    let response = sender.send_request(req).await?;
    let status = response.status().as_u16();
    let body = response.into_body().collect().await?.to_bytes();
    Ok((status, body.len()))
}

async fn get_once(port: u16, path: &str) -> anyhow::Result<(u16, usize)> {
    let mut sender = connect(port).await?;
    request(&mut sender, path).await
}

struct Row {
    name: &'static str,
    rps: f64,
    p50: Duration,
    p99: Duration,
    errors: u64,
    bytes: usize,
}

async fn load(port: u16, name: &'static str, path: &'static str, o: &Options) -> anyhow::Result<Row> {
    let (status, bytes) = get_once(port, path).await?;
    if status != 200 {
        bail!("{path} answered {status} before the run");
    }
    let run = |duration: Duration| async move {
        let mut workers = Vec::new();
        for _ in 0..o.connections {
            workers.push(tokio::spawn(async move {
                let mut sender = connect(port).await?;
                let mut latencies = Vec::with_capacity(64 * 1024);
                let mut errors = 0_u64;
                let end = Instant::now() + duration;
                while Instant::now() < end {
                    let started = Instant::now();
                    match request(&mut sender, path).await {
                        Ok((200, _)) => latencies.push(started.elapsed()),
                        Ok(_) => errors += 1,
                        Err(_) => {
                            errors += 1;
                            sender = connect(port).await?;
                        }
                    }
                }
                anyhow::Ok((latencies, errors))
            }));
        }
        let mut all = Vec::new();
        let mut errors = 0;
        for w in workers {
            let (latencies, e) = w.await??;
            all.extend(latencies);
            errors += e;
        }
        anyhow::Ok((all, errors))
    };
    run(Duration::from_millis(500)).await?;
    let started = Instant::now();
    let (mut latencies, errors) = run(o.duration).await?;
    let elapsed = started.elapsed().as_secs_f64();
    latencies.sort_unstable();
    let pick = |q: f64| {
        let idx = ((latencies.len() as f64 - 1.0) * q).round() as usize;
        latencies.get(idx).copied().unwrap_or_default()
    };
    Ok(Row { name, rps: latencies.len() as f64 / elapsed, p50: pick(0.50), p99: pick(0.99), errors, bytes })
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1000.0)
}

#[allow(clippy::print_stdout)]
#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let o = options()?;
    let server = start_server(&o).await?;
    let idle_rss = rss_kib(server.child.id());
    let mut rows = Vec::new();
    for (name, path) in ENDPOINTS {
        rows.push(load(server.port, name, path, &o).await?);
    }
    let loaded_rss = rss_kib(server.child.id());
    let ceiling = rows.first().map_or(1.0, |r| r.rps.max(1.0));
    println!();
    println!(
        "croupier-bench: {} keep-alive connections, {} s per row, server and load generator on {} cores",
        o.connections,
        o.duration.as_secs(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!();
    println!("| endpoint | req/s | p50 ms | p99 ms | % of ceiling | errors | body bytes |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for r in &rows {
        println!(
            "| {} | {:.0} | {} | {} | {:.0}% | {} | {} |",
            r.name,
            r.rps,
            ms(r.p50),
            ms(r.p99),
            100.0 * r.rps / ceiling,
            r.errors,
            r.bytes
        );
    }
    if let (Some(idle), Some(loaded)) = (idle_rss, loaded_rss) {
        println!();
        println!(
            "server memory (RSS): {:.1} MiB idle, {:.1} MiB after the run",
            idle as f64 / 1024.0,
            loaded as f64 / 1024.0
        );
    }
    Ok(())
}
