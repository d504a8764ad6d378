//! Instruction sets for the search engines, picked at run time.
//!
//! The engines are written once in portable Rust. Their hot loops are compiled a second and a
//! third time for newer x86-64 processors (`#[target_feature]`): with POPCNT, BMI1/2 and AVX2
//! (x86-64-v3), and with AVX-512 on top. One binary then runs everywhere and uses what the
//! processor has; the portable build stays the fallback on other processors and architectures.
//! All levels run the same code on the same data, so they find the same solutions in the same
//! order with the same number of guesses (the tests check this on every benchmark set).
//!
//! The environment variable `SUDOBOT_ISA` (`portable`, `avx2` or `avx512`) caps the level, so
//! CI and users can force the portable path; a level the processor lacks is never used.
//!
//! # Safety
//!
//! This module holds the solver's only `unsafe`: calls to functions compiled with
//! `#[target_feature]`. The invariant is that such a function is called only when the running
//! processor supports every feature it enables. [`Isa::supported`] checks that with
//! `is_x86_feature_detected!` for the exact feature lists the functions enable (the lists
//! are written once, in the `level!` lines that define both the constants [`AVX2`] and
//! [`AVX512`] and the compiled functions), and every
//! call site matches on a level that came out of [`Isa::supported`]. The one other `unsafe` is
//! the BMI2 intrinsic in [`Pext`], a type private to this module that only `classic_avx512`
//! (compiled with BMI2, called after detecting it) uses. Nothing else here is unsafe: the
//! compiled functions are ordinary safe Rust.

use std::sync::OnceLock;

use super::Report;
use super::classic::{SPREAD, Tables};

/// A level of instruction-set support the engines can be compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Isa {
    /// Plain Rust for the build's target (the fallback everywhere).
    Portable,
    /// x86-64 with AVX2, BMI1/2, LZCNT and POPCNT (x86-64-v3).
    Avx2,
    /// x86-64-v3 plus AVX-512 F/BW/VL/DQ/CD and VPOPCNTDQ.
    Avx512,
}

/// Defines a level's feature list once, for both `#[target_feature]` and detection: the
/// constant `$list` and the 9x9 search compiled with those features, `$classic`.
macro_rules! level {
    ($list:ident, $classic:ident, $gather:ty, $features:literal) => {
        /// The features this level needs, exactly as its functions are compiled with them.
        pub const $list: &str = $features;

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        fn $classic<R: Report>(sink: &mut R, cells: &[u8; 81]) -> u64 {
            super::classic::run::<R, $gather>(sink, cells)
        }
    };
}

// The AVX2 level keeps the tables: PEXT is microcoded and slow on AMD processors before Zen 3,
// which have AVX2 but not AVX-512.
level!(AVX2, classic_avx2, Tables, "avx2,bmi1,bmi2,lzcnt,popcnt,fma");
level!(
    AVX512,
    classic_avx512,
    Pext,
    "avx2,bmi1,bmi2,lzcnt,popcnt,fma,avx512f,avx512bw,avx512vl,avx512dq,avx512cd,avx512vpopcntdq"
);

/// How the 9x9 engine gathers a band word's mini-row pattern ([`Tables`] everywhere, [`Pext`]
/// where the processor has BMI2): one bit per mini-row, bit `row * 3 + box`, below 512.
pub(super) trait Gather {
    fn mini_rows(a: u32) -> usize;
}

/// The mini-row pattern by one PEXT (BMI2) instead of three table loads: 7-8% faster on every
/// benchmark set on AMD Zen 4 (2026-11-27). Private to this module, so that only a function
/// compiled with BMI2 and called after detecting it (`classic_avx512`) can use it.
#[cfg(target_arch = "x86_64")]
struct Pext;

#[cfg(target_arch = "x86_64")]
impl Gather for Pext {
    #[inline(always)]
    fn mini_rows(a: u32) -> usize {
        // SAFETY: `Pext` is used only by `classic_avx512`, which is compiled with BMI2 and
        // called only after BMI2 was detected (see the module's Safety section).
        (unsafe { std::arch::x86_64::_pext_u32(a | a >> 1 | a >> 2, SPREAD) }) as usize
    }
}

impl Isa {
    /// Every level, lowest first.
    pub const ALL: [Isa; 3] = [Isa::Portable, Isa::Avx2, Isa::Avx512];

    /// The name `SUDOBOT_ISA` takes.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Portable => "portable",
            Isa::Avx2 => "avx2",
            Isa::Avx512 => "avx512",
        }
    }

    /// Whether this processor runs the level: every feature of its list is detected.
    /// Detected once per process.
    pub fn supported(self) -> bool {
        static SUPPORTED: OnceLock<[bool; 3]> = OnceLock::new();
        SUPPORTED.get_or_init(|| Isa::ALL.map(Isa::detect))[self as usize]
    }

    fn detect(self) -> bool {
        match self {
            Isa::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => AVX2.split(',').all(detected),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => AVX512.split(',').all(detected),
            #[cfg(not(target_arch = "x86_64"))]
            Isa::Avx2 | Isa::Avx512 => false,
        }
    }

    /// The highest supported level, capped by `SUDOBOT_ISA` when it is set. Detected once per
    /// process.
    pub fn detected() -> Isa {
        static LEVEL: OnceLock<Isa> = OnceLock::new();
        *LEVEL.get_or_init(|| {
            let cap = std::env::var("SUDOBOT_ISA")
                .ok()
                .and_then(|v| Isa::ALL.into_iter().find(|i| i.name() == v.trim()))
                .unwrap_or(Isa::Avx512);
            Isa::ALL.into_iter().rev().find(|i| *i <= cap && i.supported()).unwrap_or(Isa::Portable)
        })
    }

    /// This level if the processor runs it, else the highest supported one below it.
    pub(super) fn or_supported(self) -> Isa {
        Isa::ALL.into_iter().rev().find(|i| *i <= self && i.supported()).unwrap_or(Isa::Portable)
    }
}

/// One feature name from the lists above, detected on this processor.
#[cfg(target_arch = "x86_64")]
fn detected(feature: &str) -> bool {
    match feature {
        "avx2" => is_x86_feature_detected!("avx2"),
        "bmi1" => is_x86_feature_detected!("bmi1"),
        "bmi2" => is_x86_feature_detected!("bmi2"),
        "lzcnt" => is_x86_feature_detected!("lzcnt"),
        "popcnt" => is_x86_feature_detected!("popcnt"),
        "fma" => is_x86_feature_detected!("fma"),
        "avx512f" => is_x86_feature_detected!("avx512f"),
        "avx512bw" => is_x86_feature_detected!("avx512bw"),
        "avx512vl" => is_x86_feature_detected!("avx512vl"),
        "avx512dq" => is_x86_feature_detected!("avx512dq"),
        "avx512cd" => is_x86_feature_detected!("avx512cd"),
        "avx512vpopcntdq" => is_x86_feature_detected!("avx512vpopcntdq"),
        // A feature this function does not know is treated as missing: never unsafe.
        _ => false,
    }
}

/// Runs the 9x9 search at `isa`, or at the highest supported level below it.
pub(super) fn classic<R: Report>(isa: Isa, sink: &mut R, cells: &[u8; 81]) -> u64 {
    let isa = isa.or_supported();
    match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `or_supported` returned Avx2 only after detecting every feature of AVX2.
        Isa::Avx2 => unsafe { classic_avx2(sink, cells) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, for every feature of AVX512.
        Isa::Avx512 => unsafe { classic_avx512(sink, cells) },
        _ => super::classic::run::<R, Tables>(sink, cells),
    }
}
