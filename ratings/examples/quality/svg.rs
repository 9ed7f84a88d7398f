//! Two hand-written SVG charts for docs/RATINGS.md: a calibration chart (predicted VP share
//! against the observed one, per bin) and rating trajectories (each bot level's mean rating over
//! the matches played).

use std::fmt::Write;

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 440.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 170.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 60.0;
const COLOURS: [&str; 6] = [
    "#1b6ac9", "#d9480f", "#2b8a3e", "#862e9c", "#495057", "#c92a2a",
];

/// A named series of points; `dashed` draws it dashed; `sizes`, when given, one weight per point
/// (the calibration chart's bin counts) scaling its markers.
#[derive(Debug, Clone)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    pub sizes: Option<Vec<f64>>,
    pub dashed: bool,
    pub colour: usize,
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The plotting area's mapping from data to pixels.
struct Frame {
    x: (f64, f64),
    y: (f64, f64),
}

impl Frame {
    fn px(&self, x: f64) -> f64 {
        LEFT + (x - self.x.0) / (self.x.1 - self.x.0) * (WIDTH - LEFT - RIGHT)
    }
    fn py(&self, y: f64) -> f64 {
        HEIGHT - BOTTOM - (y - self.y.0) / (self.y.1 - self.y.0) * (HEIGHT - TOP - BOTTOM)
    }
}

/// A chart's frame: its title, axes' labels and ranges, tick counts, and whether to draw the
/// diagonal y = x (calibration).
#[derive(Debug, Clone)]
pub struct Axes {
    pub title: String,
    pub x_label: &'static str,
    pub y_label: &'static str,
    pub x: (f64, f64),
    pub y: (f64, f64),
    pub ticks: (usize, usize),
    pub diagonal: bool,
}

/// A line chart with axes, ticks, a legend, and the diagonal if asked.
pub fn chart(axes: &Axes, series: &[Series]) -> String {
    let Axes {
        title,
        x_label,
        y_label,
        x,
        y,
        ticks,
        diagonal,
    } = axes.clone();
    let f = Frame { x, y };
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="15">{}</text>"#,
        (LEFT + WIDTH - RIGHT) / 2.0,
        escape(&title)
    );
    // Grid and ticks.
    for i in 0..=ticks.0 {
        let v = x.0 + (x.1 - x.0) * i as f64 / ticks.0 as f64;
        let px = f.px(v);
        let _ = writeln!(
            s,
            r##"<line x1="{px:.1}" y1="{:.1}" x2="{px:.1}" y2="{:.1}" stroke="#e9ecef"/><text x="{px:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
            f.py(y.0),
            f.py(y.1),
            f.py(y.0) + 16.0,
            tick_label(v)
        );
    }
    for i in 0..=ticks.1 {
        let v = y.0 + (y.1 - y.0) * i as f64 / ticks.1 as f64;
        let py = f.py(v);
        let _ = writeln!(
            s,
            r##"<line x1="{:.1}" y1="{py:.1}" x2="{:.1}" y2="{py:.1}" stroke="#e9ecef"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            f.px(x.0),
            f.px(x.1),
            f.px(x.0) - 6.0,
            py + 4.0,
            tick_label(v)
        );
    }
    let _ = writeln!(
        s,
        r##"<rect x="{LEFT}" y="{TOP}" width="{}" height="{}" fill="none" stroke="#343a40"/>"##,
        WIDTH - LEFT - RIGHT,
        HEIGHT - TOP - BOTTOM
    );
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
        (LEFT + WIDTH - RIGHT) / 2.0,
        HEIGHT - 18.0,
        escape(x_label)
    );
    let _ = writeln!(
        s,
        r#"<text x="18" y="{}" text-anchor="middle" transform="rotate(-90 18 {})">{}</text>"#,
        (TOP + HEIGHT - BOTTOM) / 2.0,
        (TOP + HEIGHT - BOTTOM) / 2.0,
        escape(y_label)
    );
    if diagonal {
        let _ = writeln!(
            s,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#868e96" stroke-dasharray="3 3"/>"##,
            f.px(x.0),
            f.py(y.0),
            f.px(x.1),
            f.py(y.1)
        );
    }
    for (k, series) in series.iter().enumerate() {
        let colour = COLOURS[series.colour % COLOURS.len()];
        let path: Vec<String> = series
            .points
            .iter()
            .map(|&(a, b)| format!("{:.1},{:.1}", f.px(a), f.py(b)))
            .collect();
        let dash = if series.dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>"#,
            path.join(" ")
        );
        if let Some(sizes) = &series.sizes {
            let most = sizes.iter().cloned().fold(1.0, f64::max);
            for (&(a, b), &n) in series.points.iter().zip(sizes) {
                let r = 2.0 + 6.0 * (n / most).sqrt();
                let _ = writeln!(
                    s,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="{r:.1}" fill="{colour}" fill-opacity="0.5"/>"#,
                    f.px(a),
                    f.py(b)
                );
            }
        }
        let ly = TOP + 10.0 + 20.0 * k as f64;
        let lx = WIDTH - RIGHT + 12.0;
        let _ = writeln!(
            s,
            r#"<line x1="{lx}" y1="{ly}" x2="{}" y2="{ly}" stroke="{colour}" stroke-width="2"{dash}/><text x="{}" y="{}">{}</text>"#,
            lx + 24.0,
            lx + 30.0,
            ly + 4.0,
            escape(&series.name)
        );
    }
    s.push_str("</svg>\n");
    s
}

fn tick_label(v: f64) -> String {
    if v.abs() >= 10.0 || v == v.round() {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}
