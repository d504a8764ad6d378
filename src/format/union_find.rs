//! Regions from walls: the formats that draw jigsaw walls (Solo's Copy text, Solo game IDs) join
//! the cells that no wall separates, and the groups that result are the regions.

/// Disjoint sets over cell indices.
pub(crate) struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    /// Every cell on its own.
    pub(crate) fn new(cells: usize) -> UnionFind {
        UnionFind { parent: (0..cells).collect() }
    }

    fn root(&mut self, mut a: usize) -> usize {
        while self.parent[a] != a {
            self.parent[a] = self.parent[self.parent[a]];
            a = self.parent[a];
        }
        a
    }

    /// Puts two cells in the same group.
    pub(crate) fn join(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.root(a), self.root(b));
        if ra != rb {
            self.parent[ra.max(rb)] = ra.min(rb);
        }
    }

    /// A label per cell: the smallest index of its group.
    pub(crate) fn labels(mut self) -> Vec<usize> {
        (0..self.parent.len()).map(|c| self.root(c)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joined_cells_share_the_smallest_label() {
        let mut u = UnionFind::new(5);
        u.join(3, 1);
        u.join(4, 3);
        assert_eq!(u.labels(), vec![0, 1, 2, 1, 1]);
    }
}
