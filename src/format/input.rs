//! Reading puzzle input of unknown shape: telling the format apart ([`detect`]), reading one
//! puzzle in any format ([`parse`]) and splitting a whole input (an argument, standard input or
//! a file) into numbered puzzles ([`read_puzzles`]).
//!
//! One-line puzzles and Solo game IDs come one a line, so an input can hold many of them (a
//! batch); so can drawn grids, separated by blank lines. Solo grid text spans several lines and
//! is always exactly one puzzle.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{
    Format, ParseError, ParseErrorKind, Position, cages, line, pretty, solo_id, solo_text,
};
use crate::grid::{Geometry, Grid};

/// Whether a line is skipped between puzzles: blank, or a `#` comment.
pub fn is_skipped(line: &str) -> bool {
    let line = line.trim();
    line.is_empty() || line.starts_with('#')
}

/// Whether a line starts like a Solo game ID: parameters (a digit, then digits and letters such
/// as `3x3`, `9j`, `3x3x`, `2x3k`), then a colon.
fn looks_like_solo_id(line: &str) -> bool {
    let Some((params, _)) = line.trim().split_once(':') else {
        return false;
    };
    params.starts_with(|c: char| c.is_ascii_digit())
        && params.chars().all(|c| c.is_ascii_alphanumeric())
}

/// Whether a line is a rule of Solo's grid text: only `-`, `+` and spaces, with at least one `-`.
fn is_rule_line(line: &str) -> bool {
    line.contains('-') && line.chars().all(|c| matches!(c, '-' | '+' | ' '))
}

/// Whether a line is a row of Solo's grid text: single-character cells separated by spaces,
/// possibly with `|` walls (`. 8 . | 3 . .`).
fn is_cell_row(line: &str) -> bool {
    let line = line.trim();
    line.contains('|')
        || (line.contains(' ')
            && line.split_whitespace().count() > 1
            && line.split_whitespace().all(|t| t.chars().count() == 1))
}

/// Tells which format a text is in. Never fails: text that fits nothing is reported as one-line,
/// whose parser then names the first character that does not fit.
///
/// - a first line starting with a border (`+`, `|`, `┌`, ...) is a drawn grid (pretty);
/// - a first line that is a cage (`23: r1c1 r1c2`) or a cage-text setting (`box: 2x3`), or a
///   second line that is a cage, is cage text;
/// - a first puzzle line like `3x3:...` or `9j:...` is a Solo game ID;
/// - lines with `|` walls, `-`/`+` rules or space-separated single-character cells are Solo grid
///   text;
/// - anything else is the one-line format.
pub fn detect(text: &str) -> Format {
    let mut lines = text.lines().filter(|l| !is_skipped(l));
    let Some(first) = lines.next() else {
        return Format::Line;
    };
    if pretty::looks_like_drawing(first) {
        return Format::Pretty;
    }
    if cages::is_cage_line(first)
        || cages::is_setting_line(first)
        || lines.next().is_some_and(cages::is_cage_line)
    {
        return Format::Cages;
    }
    if looks_like_solo_id(first) {
        return Format::SoloId;
    }
    if is_cell_row(first) || is_rule_line(first.trim()) {
        return Format::SoloText;
    }
    Format::Line
}

/// Reads one puzzle in the given format, or in the detected one when `format` is `None`.
/// Killer givens that break their cage are an error here (as givens repeated in a house are
/// for the solver).
pub fn parse(text: &str, format: Option<Format>) -> Result<Grid, ParseError> {
    let (line, _) = first_puzzle_line(text);
    parse_any(text, format).and_then(|g| cages_kept(g, line))
}

/// A Killer grid whose givens keep every cage, or the error naming the cage.
fn cages_kept(grid: Grid, line: usize) -> Result<Grid, ParseError> {
    match grid.cage_conflict() {
        None => Ok(grid),
        Some(c) => {
            Err(ParseError::at(line, 0, ParseErrorKind::Syntax(format!("invalid givens: {c}"))))
        }
    }
}

fn parse_any(text: &str, format: Option<Format>) -> Result<Grid, ParseError> {
    if text.lines().all(is_skipped) {
        return Err(ParseError::whole(ParseErrorKind::Empty));
    }
    match format.unwrap_or_else(|| detect(text)) {
        Format::Line => {
            let (number, line) = first_puzzle_line(text);
            line::parse(line).map_err(|e| e.on_line(number))
        }
        Format::SoloId => {
            let (number, line) = first_puzzle_line(text);
            solo_id::parse(line.trim()).map_err(|e| e.on_line(number))
        }
        Format::SoloText => solo_text::parse(text),
        Format::Pretty => match drawn_blocks(text).into_iter().next() {
            Some((number, block)) => pretty::parse(&block).map_err(|e| e.on_line(number)),
            None => Err(ParseError::whole(ParseErrorKind::Empty)),
        },
        Format::Cages => cages::parse(text),
    }
}

/// The first line that is not skipped, with its 1-based number (1 and "" for none).
fn first_puzzle_line(text: &str) -> (usize, &str) {
    text.lines()
        .enumerate()
        .find(|(_, l)| !is_skipped(l))
        .map(|(n, l)| (n + 1, l))
        .unwrap_or((1, ""))
}

/// How to read an input.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// The format, or `None` to detect it.
    pub format: Option<Format>,
    /// The geometry of one-line puzzles, instead of the usual box shape for their length (a
    /// different box shape, say). Only for [`Format::Line`] and [`Format::Cages`] (there for
    /// puzzles without a `box:` or `regions:` setting).
    pub geometry: Option<Arc<Geometry>>,
    /// Add both diagonals as houses (X sudoku) to every puzzle read.
    pub diagonals: bool,
}

/// One puzzle of an input: where it starts and what was read there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The 1-based line the puzzle starts on.
    pub line: usize,
    /// The puzzle, or why it could not be read.
    pub puzzle: Result<Grid, ParseError>,
}

/// What was read from an input: its format and its puzzles in input order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzles {
    /// The format (given or detected).
    pub format: Format,
    /// Every puzzle with its line number, in input order. Never empty.
    pub entries: Vec<Entry>,
}

/// Errors reading an input as a whole (a single puzzle's problems are in its [`Entry`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    /// The input holds no puzzle: it is empty or only blank and `#` comment lines.
    #[error("{source_name}: no puzzle found (the input is empty or only comments)")]
    Empty {
        /// "standard input", the path, or "the argument".
        source_name: String,
    },
    /// A file or standard input could not be read.
    #[error("cannot read {source_name}: {error}")]
    Read {
        /// The path or "standard input".
        source_name: String,
        /// Why.
        error: std::io::Error,
    },
    /// The input is not UTF-8 text.
    #[error("{source_name}: line {line}, column {column}: not UTF-8 text")]
    NotText {
        /// The path or "standard input".
        source_name: String,
        /// 1-based line of the first bad byte.
        line: usize,
        /// 1-based column (in characters) of the first bad byte.
        column: usize,
    },
    /// A line is longer than any puzzle line can be ([`MAX_LINE`]): not puzzle input (a
    /// binary file, `/dev/zero`), refused before it fills the memory.
    #[error(
        "{source_name}: line {line} is longer than {max} bytes, more than any puzzle needs \
         (is it a puzzle file?)",
        max = MAX_LINE
    )]
    LineTooLong {
        /// The path or "standard input".
        source_name: String,
        /// 1-based number of the long line.
        line: usize,
    },
    /// An input read whole (everything but a `solve` batch, which is read a chunk at a time) is
    /// larger than [`MAX_TEXT`].
    #[error(
        "{source_name}: larger than {max} MiB, more than a command that reads its input whole \
         takes (split it, or use `solve --file`, which reads a batch a chunk at a time)",
        max = MAX_TEXT >> 20
    )]
    TooLarge {
        /// The path or "standard input".
        source_name: String,
    },
    /// A geometry was given for a format that carries its own.
    #[error(
        "a box shape applies to one-line puzzles and cage text only, but the input is {format}"
    )]
    GeometryForFormat {
        /// The format of the input.
        format: Format,
    },
}

/// The longest line any input may have, in bytes. The longest real puzzle line is a 36x36
/// candidate grid's row or a 36x36 one-line puzzle with separators (under 50 KB); a longer
/// line is refused as soon as it is seen, so `/dev/zero` or a binary file costs no memory.
pub const MAX_LINE: usize = 1 << 18;

/// The largest input read whole (every command but a `solve` batch), in bytes: about 800,000
/// one-line puzzles.
pub const MAX_TEXT: usize = 64 << 20;

/// Reads a file into text, naming the path on failure; refuses a line over [`MAX_LINE`] or a
/// file over [`MAX_TEXT`] as soon as it gets there.
pub fn read_file(path: &Path) -> Result<String, InputError> {
    read_text(open_file(path)?, &display_path(path))
}

/// Reads all of a reader (standard input) into text, with the bounds of [`read_file`].
pub fn read_stdin(reader: impl std::io::Read) -> Result<String, InputError> {
    read_text(std::io::BufReader::new(reader), "standard input")
}

/// Reads `reader` to its end, a line at a time, each line bounded by [`MAX_LINE`] and the
/// whole by [`MAX_TEXT`].
fn read_text(mut reader: impl std::io::BufRead, source_name: &str) -> Result<String, InputError> {
    let mut bytes = Vec::new();
    let mut line = 0;
    loop {
        line += 1;
        let read = read_line_bounded(&mut reader, &mut bytes, source_name, line)?;
        if read == 0 {
            break;
        }
        if bytes.len() > MAX_TEXT {
            return Err(InputError::TooLarge { source_name: source_name.to_string() });
        }
    }
    into_text(bytes, source_name.to_string())
}

/// Appends one line (its `\n` included) to `bytes`, reading at most [`MAX_LINE`] bytes of it;
/// returns the bytes read, 0 at the end of the input.
fn read_line_bounded(
    reader: &mut impl std::io::BufRead,
    bytes: &mut Vec<u8>,
    source_name: &str,
    line: usize,
) -> Result<usize, InputError> {
    use std::io::{BufRead, Read};
    let start = bytes.len();
    // Two bytes over the bound: a line of exactly MAX_LINE bytes still ends ("\r\n") within
    // them, and a longer one shows itself.
    let read = reader
        .by_ref()
        .take(MAX_LINE as u64 + 2)
        .read_until(b'\n', bytes)
        .map_err(|error| InputError::Read { source_name: source_name.to_string(), error })?;
    let content = bytes[start..].strip_suffix(b"\n").unwrap_or(&bytes[start..]);
    let content = content.strip_suffix(b"\r").unwrap_or(content);
    if content.len() > MAX_LINE {
        return Err(InputError::LineTooLong { source_name: source_name.to_string(), line });
    }
    Ok(read)
}

/// Bytes as UTF-8 text, or an error naming the line and column of the first bad byte.
fn into_text(bytes: Vec<u8>, source_name: String) -> Result<String, InputError> {
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        // `valid` is UTF-8 by construction, so counting its characters is exact.
        let before = String::from_utf8_lossy(valid);
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        InputError::NotText { source_name, line, column }
    })
}

fn display_path(path: &Path) -> String {
    PathBuf::from(path).display().to_string()
}

/// Splits an input into puzzles: one-line puzzles and Solo game IDs one a line (blank and `#`
/// lines skipped, LF or CRLF; when the format is detected, each line is detected on its own, so
/// the two may be mixed), Solo grid text as one puzzle, drawn grids separated by blank lines,
/// cage text each from its grid line. A puzzle that cannot be read is
/// an [`Entry`] with an error carrying the input's line number; only an input with no puzzle at
/// all, or options that do not fit its format, fail as a whole.
pub fn read_puzzles(
    text: &str,
    source_name: &str,
    options: &ReadOptions,
) -> Result<Puzzles, InputError> {
    if text.lines().all(is_skipped) {
        return Err(InputError::Empty { source_name: source_name.to_string() });
    }
    let format = options.format.unwrap_or_else(|| detect(text));
    if options.geometry.is_some() && !matches!(format, Format::Line | Format::Cages) {
        return Err(InputError::GeometryForFormat { format });
    }
    let mut entries: Vec<Entry> = match format {
        Format::SoloText => {
            let (line, _) = first_puzzle_line(text);
            vec![Entry { line, puzzle: solo_text::parse(text) }]
        }
        Format::Cages => cages::parse_all(text, options.geometry.as_ref())
            .into_iter()
            .map(|(line, puzzle)| Entry { line, puzzle })
            .collect(),
        Format::Pretty => drawn_blocks(text)
            .into_iter()
            .map(|(line, block)| Entry {
                line,
                puzzle: pretty::parse(&block).map_err(|e| e.on_line(line)),
            })
            .collect(),
        Format::Line | Format::SoloId => text
            .lines()
            .enumerate()
            .filter(|(_, l)| !is_skipped(l))
            .map(|(n, l)| line_entry(l, n + 1, options))
            .collect(),
    };
    if matches!(format, Format::Line | Format::SoloId) {
        // `line_entry` has checked cages and added diagonals already.
        return Ok(Puzzles { format, entries });
    }
    for entry in &mut entries {
        if let Ok(grid) = &entry.puzzle
            && grid.geometry().is_killer()
        {
            entry.puzzle = cages_kept(grid.clone(), entry.line);
        }
    }
    if options.diagonals {
        for entry in &mut entries {
            if let Ok(grid) = &entry.puzzle {
                entry.puzzle = with_diagonals(grid)
                    .map_err(|e| ParseError::whole(e.into()).on_line(entry.line));
            }
        }
    }
    Ok(Puzzles { format, entries })
}

/// Reads one line of a line-by-line input (one-line puzzles and Solo game IDs) as the puzzle
/// on line `number` (1-based), the way [`read_puzzles`] does: with the format of `options`, or
/// told apart on this line alone when it is `None`; Killer cages checked; diagonals added when
/// asked. The line must not be a skipped one ([`is_skipped`]).
pub fn line_entry(line: &str, number: usize, options: &ReadOptions) -> Entry {
    // Undetected line-by-line input is told apart line by line, so a file may mix one-line
    // puzzles and game IDs.
    let this = match options.format {
        None if options.geometry.is_none() && looks_like_solo_id(line) => Format::SoloId,
        None => Format::Line,
        Some(forced) => forced,
    };
    let puzzle = match (this, &options.geometry) {
        (Format::SoloId, _) => solo_id::parse(line.trim()),
        (_, None) if let Some(grid) = plain_9x9(line) => Ok(grid),
        (_, Some(geometry)) => parse_trimmed(line, |t| line::parse_with(t, geometry)),
        (_, None) => parse_trimmed(line, line::parse),
    };
    let mut puzzle = puzzle.map_err(|e| e.on_line(number));
    if let Ok(grid) = &puzzle
        && grid.geometry().is_killer()
    {
        puzzle = cages_kept(grid.clone(), number);
    }
    if options.diagonals
        && let Ok(grid) = &puzzle
    {
        puzzle = with_diagonals(grid).map_err(|e| ParseError::whole(e.into()).on_line(number));
    }
    Entry { line: number, puzzle }
}

/// The common case of a batch, read without the general parser: exactly 81 ASCII digits and
/// dots (surrounding whitespace aside). Gives what [`line::parse`] gives for such a line, or
/// `None` to leave the line to it.
fn plain_9x9(line: &str) -> Option<Grid> {
    let bytes = line.trim_ascii().as_bytes();
    if bytes.len() != 81 {
        return None;
    }
    let mut cells = Vec::with_capacity(81);
    for &b in bytes {
        cells.push(match b {
            b'1'..=b'9' => b - b'0',
            b'.' | b'0' => 0,
            _ => return None,
        });
    }
    Grid::new(Geometry::standard(9).ok()?, cells).ok()
}

/// Whether a format comes one puzzle a line, so that an input in it can be read and solved a
/// chunk of lines at a time ([`LineReader`], [`line_entry`]).
pub fn is_line_by_line(format: Format) -> bool {
    matches!(format, Format::Line | Format::SoloId)
}

/// Opens a file for [`LineReader`], naming the path on failure.
pub fn open_file(path: &Path) -> Result<std::io::BufReader<std::fs::File>, InputError> {
    std::fs::File::open(path)
        .map(|f| std::io::BufReader::with_capacity(1 << 16, f))
        .map_err(|error| InputError::Read { source_name: display_path(path), error })
}

/// Reads an input a chunk of lines at a time, so that a batch is solved and printed while the
/// rest is still being read, in bounded memory. Each chunk is one buffer; its lines are slices
/// of it (no copy per line).
pub struct LineReader<R> {
    reader: R,
    source_name: String,
    /// Lines read so far.
    line: usize,
    at_end: bool,
}

/// Lines read by [`LineReader::next_chunk`]: UTF-8 text and where each line lies in it.
#[derive(Debug, Default)]
pub struct Chunk {
    text: String,
    /// (1-based line number, start, end) of every line, line endings excluded.
    lines: Vec<(usize, usize, usize)>,
}

impl Chunk {
    /// The whole text of the chunk, line endings included.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text, for reading the rest of an input whole.
    pub fn into_text(self) -> String {
        self.text
    }

    /// The lines that are not skipped ([`is_skipped`]), with their 1-based numbers.
    pub fn puzzle_lines(&self) -> impl Iterator<Item = (usize, &str)> {
        self.lines.iter().map(|&(n, a, b)| (n, &self.text[a..b])).filter(|(_, l)| !is_skipped(l))
    }
}

impl<R: std::io::BufRead> LineReader<R> {
    /// Reads `reader`, calling it `source_name` in errors.
    pub fn new(reader: R, source_name: &str) -> LineReader<R> {
        LineReader { reader, source_name: source_name.to_string(), line: 0, at_end: false }
    }

    /// Whether the input is exhausted.
    pub fn at_end(&self) -> bool {
        self.at_end
    }

    /// The next `max` lines (fewer at the end; none once [`at_end`](Self::at_end)). Fails when
    /// the input cannot be read or a line is not UTF-8 (naming its line and column).
    pub fn next_chunk(&mut self, max: usize) -> Result<Chunk, InputError> {
        self.refill(max, Chunk { text: String::new(), lines: Vec::new() })
    }

    /// [`LineReader::next_chunk`] into the buffers of a chunk done with: a batch read a chunk
    /// at a time touches its memory once, instead of a fresh page for every line of every
    /// chunk (2,400 page faults on 49k puzzles, 4% of the whole run).
    pub fn refill(&mut self, max: usize, done: Chunk) -> Result<Chunk, InputError> {
        let Chunk { text, mut lines } = done;
        let mut bytes = text.into_bytes();
        bytes.clear();
        lines.clear();
        while lines.len() < max && !self.at_end {
            let start = bytes.len();
            let read =
                read_line_bounded(&mut self.reader, &mut bytes, &self.source_name, self.line + 1)?;
            if read == 0 {
                self.at_end = true;
                break;
            }
            let mut end = bytes.len();
            if bytes[end - 1] == b'\n' {
                end -= 1;
                if end > start && bytes[end - 1] == b'\r' {
                    end -= 1;
                }
            }
            self.line += 1;
            lines.push((self.line, start, end));
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            let bad = e.utf8_error().valid_up_to();
            let &(line, start, _) =
                lines.iter().rev().find(|&&(_, a, _)| a <= bad).unwrap_or(&(1, 0, 0));
            let before = String::from_utf8_lossy(&e.as_bytes()[start..bad]);
            InputError::NotText {
                source_name: self.source_name.clone(),
                line,
                column: before.chars().count() + 1,
            }
        })?;
        Ok(Chunk { text, lines })
    }
}

/// Drawn grids separated by blank lines: each block's text (from its first line that is not a
/// `#` comment) with that line's 1-based number.
fn drawn_blocks(text: &str) -> Vec<(usize, String)> {
    let mut blocks: Vec<(usize, String)> = Vec::new();
    let mut open = false;
    for (n, l) in text.lines().enumerate() {
        if l.trim().is_empty() {
            open = false;
        } else if l.trim_start().starts_with('#') {
            // Inside a block a comment stays as an empty line, so that the block's line
            // numbers stay those of the text (the drawing parser skips empty lines).
            if open && let Some((_, block)) = blocks.last_mut() {
                block.push('\n');
            }
        } else if open {
            if let Some((_, block)) = blocks.last_mut() {
                block.push_str(l);
                block.push('\n');
            }
        } else {
            blocks.push((n + 1, format!("{l}\n")));
            open = true;
        }
    }
    blocks
}

/// Parses a line with surrounding whitespace removed, keeping error columns true to the
/// original line.
fn parse_trimmed(
    text: &str,
    parse: impl Fn(&str) -> Result<Grid, ParseError>,
) -> Result<Grid, ParseError> {
    let trimmed = text.trim_start();
    let offset = text.chars().count() - trimmed.chars().count();
    parse(trimmed.trim_end()).map_err(|mut e| {
        if let Some(p) = e.position.as_mut() {
            p.column += offset;
        }
        e
    })
}

/// The same values on the same geometry plus both diagonals.
fn with_diagonals(grid: &Grid) -> Result<Grid, crate::grid::GridError> {
    let geometry = grid.geometry().clone().with_diagonals();
    Grid::new(Arc::new(geometry), grid.cells().to_vec())
}

impl ParseError {
    /// The same error moved to a line of a larger input: a position's line becomes `line` (the
    /// parsers count from 1 within what they were given); an error without a position gets
    /// one at column 0 meaning "the whole line".
    pub fn on_line(mut self, line: usize) -> ParseError {
        match self.position.as_mut() {
            Some(p) => p.line = line + p.line - 1,
            None => self.position = Some(Position { line, column: 0 }),
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_inside_a_drawing_keeps_the_line_numbers() {
        // Found by the `input` fuzz target: the comment was dropped from the block, so an
        // error on the row after it was put on the comment's line.
        let options = ReadOptions { format: Some(Format::Pretty), ..ReadOptions::default() };
        let puzzles = read_puzzles("|1 2|\n  # a note\n|2 Z|\n", "text", &options).expect("read");
        let e = puzzles.entries[0].puzzle.as_ref().expect_err("Z is no value of a 2x2 grid");
        assert_eq!(e.position, Some(Position { line: 3, column: 4 }), "{e}");
    }
}
