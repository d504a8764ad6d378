//! Helpers shared by several test modules.

/// Whether the cells labelled `label` form one orthogonally connected piece (true when there
/// are none). The random jigsaw generators keep every region connected with it, as Solo's
/// formats need.
pub fn connected(labels: &[usize], side: usize, label: usize) -> bool {
    let cells: Vec<usize> = (0..labels.len()).filter(|&i| labels[i] == label).collect();
    let Some(&start) = cells.first() else {
        return true;
    };
    let mut seen = vec![false; labels.len()];
    let mut stack = vec![start];
    seen[start] = true;
    let mut count = 0;
    while let Some(i) = stack.pop() {
        count += 1;
        let (r, c) = (i / side, i % side);
        let neighbours = [
            (r > 0).then(|| i - side),
            (r + 1 < side).then(|| i + side),
            (c > 0).then(|| i - 1),
            (c + 1 < side).then(|| i + 1),
        ];
        for j in neighbours.into_iter().flatten() {
            if !seen[j] && labels[j] == label {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    count == cells.len()
}
