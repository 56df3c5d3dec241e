//! The tools' one table printer. Kafka's tools print tables two ways, and both are here: a
//! column as wide as its widest cell (at least a minimum; Kafka computes these widths before
//! its `printf`), or a fixed `printf("%-Ns")` width a longer cell overflows. Cells are joined
//! by a separator; the last cell is unpadded unless the tool pads it (Kafka's
//! `prettyPrintTable` pads every cell and ends each with a tab).

/// How wide a column is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    /// As wide as its widest cell, and at least this.
    Fit(usize),
    /// `%-Ns`: padded to this, a longer cell overflowing it.
    Fixed(usize),
}

/// A table's layout.
#[derive(Debug, Clone)]
pub struct Table {
    widths: Vec<Width>,
    sep: &'static str,
    after_each: &'static str,
    pad_last: bool,
}

impl Table {
    /// Columns as wide as their widest cell and at least `min[c]` (0 past the end of `min`),
    /// joined by `sep`, the last cell unpadded and trailing blanks trimmed.
    pub fn fit(min: &[usize], sep: &'static str) -> Table {
        Table {
            widths: min.iter().map(|m| Width::Fit(*m)).collect(),
            sep,
            after_each: "",
            pad_last: false,
        }
    }

    /// `printf` columns of these widths joined by `sep` (the last cell unpadded; a column past
    /// the end of `widths` as wide as its widest cell).
    pub fn fixed(widths: &[usize], sep: &'static str) -> Table {
        Table {
            widths: widths.iter().map(|w| Width::Fixed(*w)).collect(),
            sep,
            after_each: "",
            pad_last: false,
        }
    }

    /// Kafka's `ToolsUtils.prettyPrintTable`: every cell padded to its column's widest cell
    /// and followed by a tab.
    pub fn pretty() -> Table {
        Table {
            widths: Vec::new(),
            sep: "",
            after_each: "\t",
            pad_last: true,
        }
    }

    /// Pads the last cell too (Kafka's tools whose format string pads every column).
    pub fn pad_last(mut self) -> Table {
        self.pad_last = true;
        self
    }

    /// Each row as a line.
    pub fn lines(&self, rows: &[Vec<String>]) -> Vec<String> {
        let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
        let widths: Vec<usize> = (0..columns)
            .map(
                |c| match self.widths.get(c).copied().unwrap_or(Width::Fit(0)) {
                    Width::Fixed(w) => w,
                    Width::Fit(min) => rows
                        .iter()
                        .filter_map(|r| r.get(c))
                        .map(String::len)
                        .max()
                        .unwrap_or(0)
                        .max(min),
                },
            )
            .collect();
        rows.iter()
            .map(|r| {
                let line = r
                    .iter()
                    .enumerate()
                    .map(|(c, v)| {
                        let last = c + 1 == r.len();
                        let w = if last && !self.pad_last { 0 } else { widths[c] };
                        format!("{v:<w$}{}", self.after_each)
                    })
                    .collect::<Vec<_>>()
                    .join(self.sep);
                if self.pad_last {
                    line
                } else {
                    line.trim_end().to_string()
                }
            })
            .collect()
    }

    /// One row as a line (a fixed layout needs no other rows).
    pub fn line(&self, cells: &[String]) -> String {
        self.lines(&[cells.to_vec()]).remove(0)
    }

    /// The rows as Kafka's group tools print them: each line after a newline.
    pub fn block(&self, rows: &[Vec<String>]) -> String {
        self.lines(rows).iter().map(|l| format!("\n{l}")).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(r: &[&[&str]]) -> Vec<Vec<String>> {
        r.iter()
            .map(|c| c.iter().map(|s| s.to_string()).collect())
            .collect()
    }

    #[test]
    fn fit_columns_grow_to_their_widest_cell_and_fixed_ones_overflow() {
        let t = rows(&[&["GROUP", "TOPIC", "X"], &["a-long-group-name", "t", ""]]);
        assert_eq!(
            Table::fit(&[10, 0], " ").lines(&t),
            vec!["GROUP             TOPIC X", "a-long-group-name t"]
        );
        assert_eq!(
            Table::fixed(&[10, 6], " ").lines(&t),
            vec!["GROUP      TOPIC  X", "a-long-group-name t"]
        );
        assert_eq!(
            Table::fixed(&[3, 3, 4], " ").pad_last().line(&t[0]),
            "GROUP TOPIC X   "
        );
        assert_eq!(
            Table::pretty().lines(&t),
            vec![
                "GROUP            \tTOPIC\tX\t",
                "a-long-group-name\tt    \t \t"
            ]
        );
    }
}
