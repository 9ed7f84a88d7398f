//! A small SVG line chart (no chart library): lines over a logarithmic x axis and a 0-1 y axis,
//! enough for detection rates against the number of hands.

use std::fmt::Write;

/// One line of the chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub name: String,
    /// (x > 0, y in 0..=1), in x order.
    pub points: Vec<(f64, f64)>,
    pub dashed: bool,
}

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 420.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 200.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 60.0;
const COLOURS: [&str; 10] = [
    "#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The chart as an SVG document. `x_ticks` are the x values labelled on the axis.
pub fn line_chart(
    title: &str,
    x_label: &str,
    y_label: &str,
    x_ticks: &[f64],
    series: &[Series],
) -> String {
    let xs = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .chain(x_ticks.iter().copied())
        .filter(|x| *x > 0.0);
    let (lo, hi) = xs.fold((f64::MAX, f64::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)));
    let (lo, hi) = if lo < hi {
        (lo.ln(), hi.ln())
    } else {
        (0.0, 1.0)
    };
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let px = |x: f64| LEFT + (x.max(1e-9).ln() - lo) / (hi - lo) * plot_w;
    let py = |y: f64| TOP + (1.0 - y.clamp(0.0, 1.0)) * plot_h;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        svg,
        r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/><text x="{}" y="22" text-anchor="middle" font-size="14">{}</text>"#,
        LEFT + plot_w / 2.0,
        escape(title)
    );
    for i in 0..=10 {
        let y = f64::from(i) / 10.0;
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT}" x2="{}" y1="{:.1}" y2="{:.1}" stroke="#e5e5e5"/><text x="{}" y="{:.1}" text-anchor="end">{:.0}%</text>"##,
            LEFT + plot_w,
            py(y),
            py(y),
            LEFT - 6.0,
            py(y) + 4.0,
            y * 100.0
        );
    }
    for &x in x_ticks {
        let _ = writeln!(
            svg,
            r##"<line x1="{:.1}" x2="{:.1}" y1="{TOP}" y2="{}" stroke="#e5e5e5"/><text x="{:.1}" y="{}" text-anchor="middle">{x}</text>"##,
            px(x),
            px(x),
            TOP + plot_h,
            px(x),
            TOP + plot_h + 16.0
        );
    }
    let _ = writeln!(
        svg,
        r##"<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#333"/><text x="{}" y="{}" text-anchor="middle">{}</text><text transform="translate(18 {}) rotate(-90)" text-anchor="middle">{}</text>"##,
        LEFT + plot_w / 2.0,
        HEIGHT - 18.0,
        escape(x_label),
        TOP + plot_h / 2.0,
        escape(y_label)
    );
    for (i, s) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let path: Vec<String> = s
            .points
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y)))
            .collect();
        let dash = if s.dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let _ = writeln!(
            svg,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>"#,
            path.join(" ")
        );
        for &(x, y) in &s.points {
            let _ = writeln!(
                svg,
                r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{colour}"/>"#,
                px(x),
                py(y)
            );
        }
        let ly = TOP + 10.0 + 20.0 * i as f64;
        let lx = LEFT + plot_w + 12.0;
        let _ = writeln!(
            svg,
            r#"<line x1="{lx}" x2="{}" y1="{ly}" y2="{ly}" stroke="{colour}" stroke-width="2"{dash}/><text x="{}" y="{}">{}</text>"#,
            lx + 24.0,
            lx + 30.0,
            ly + 4.0,
            escape(&s.name)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chart_draws_every_series_and_escapes_names() {
        let svg = line_chart(
            "t",
            "hands",
            "rate",
            &[10.0, 100.0],
            &[
                Series {
                    name: "a<b".into(),
                    points: vec![(10.0, 0.1), (100.0, 0.9)],
                    dashed: false,
                },
                Series {
                    name: "c".into(),
                    points: vec![(10.0, 0.0), (100.0, 0.01)],
                    dashed: true,
                },
            ],
        );
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("a&lt;b") && !svg.contains("a<b"));
        assert!(svg.contains("stroke-dasharray"));
    }
}
