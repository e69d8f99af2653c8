//! The invariant checker, run by the tests after every mutation.

use super::node::{FREE, NULL};
use super::DynamicBvh;

impl DynamicBvh {
    /// Checks every structural invariant and returns the first violation found:
    ///
    /// - the root has no parent; the tree is empty exactly when there are no proxies;
    /// - every node reached from the root is in use and reached once; each internal node has two
    ///   children whose `parent` is that node; its box contains both children's boxes and its
    ///   height is one more than the larger child height (leaves have height 0);
    /// - the leaves are exactly the live proxies: each leaf names a live slot whose `node` is that
    ///   leaf, and the leaf's box is the proxy's fat box and contains its tight box;
    /// - the nodes not in the tree are exactly the free list (no cycle, every entry marked free);
    /// - the proxy table's own invariants (live count, free list of distinct free slots, every
    ///   free slot listed unless retired), and a leaf exactly for each live slot;
    /// - the move buffer holds each flagged slot once; the pair set is strictly sorted with
    ///   `a < b`, and names live proxies unless one side is flagged in the move buffer.
    ///
    /// O(nodes + proxies + pairs); allocates a visited table.
    pub fn validate(&self) -> Result<(), String> {
        let n_nodes = self.nodes.len();
        let mut seen = vec![false; n_nodes];
        let mut leaves = 0usize;
        let mut in_tree = 0usize;
        if self.root == NULL {
            if self.proxies.len() != 0 {
                return Err(format!("empty tree but {} proxies", self.proxies.len()));
            }
        } else {
            let root = self.root as usize;
            if root >= n_nodes {
                return Err(format!("root {root} out of range"));
            }
            if self.nodes[root].parent != NULL {
                return Err(format!(
                    "root {root} has parent {}",
                    self.nodes[root].parent
                ));
            }
            let mut stack = vec![self.root];
            while let Some(i) = stack.pop() {
                let iu = i as usize;
                if iu >= n_nodes {
                    return Err(format!("node index {i} out of range"));
                }
                if seen[iu] {
                    return Err(format!("node {i} reached twice"));
                }
                seen[iu] = true;
                in_tree += 1;
                let n = &self.nodes[iu];
                if n.height == FREE {
                    return Err(format!("node {i} is in the tree and in the free list"));
                }
                if n.is_leaf() {
                    leaves += 1;
                    if n.height != 0 {
                        return Err(format!("leaf {i} has height {}", n.height));
                    }
                    let slot = n.child2 as usize;
                    let Some(p) = self.proxies.slots().get(slot) else {
                        return Err(format!("leaf {i} names slot {slot} out of range"));
                    };
                    if !p.live {
                        return Err(format!("leaf {i} names free slot {slot}"));
                    }
                    let (tight, p) = (p.aabb, &p.extra);
                    if p.node != i {
                        return Err(format!(
                            "leaf {i} names slot {slot} whose node is {}",
                            p.node
                        ));
                    }
                    if n.aabb != p.fat {
                        return Err(format!(
                            "leaf {i}: box {:?} differs from the proxy's fat box {:?}",
                            n.aabb, p.fat
                        ));
                    }
                    if !n.aabb.contains_aabb(&tight) {
                        return Err(format!(
                            "leaf {i}: fat box {:?} does not contain tight box {:?}",
                            n.aabb, tight
                        ));
                    }
                    continue;
                }
                let mut max_h = 0;
                for c in [n.child1, n.child2] {
                    let cu = c as usize;
                    if cu >= n_nodes {
                        return Err(format!("node {i} has child {c} out of range"));
                    }
                    let cn = &self.nodes[cu];
                    if cn.parent != i {
                        return Err(format!("child {c} of {i} has parent {}", cn.parent));
                    }
                    if !n.aabb.contains_aabb(&cn.aabb) {
                        return Err(format!(
                            "node {i} box {:?} does not contain child {c} box {:?}",
                            n.aabb, cn.aabb
                        ));
                    }
                    max_h = max_h.max(cn.height);
                    stack.push(c);
                }
                if n.child1 == n.child2 {
                    return Err(format!("node {i} has the same child twice"));
                }
                if n.height != max_h + 1 {
                    return Err(format!(
                        "node {i} height {} but children's max is {max_h}",
                        n.height
                    ));
                }
            }
        }
        if leaves != self.proxies.len() {
            return Err(format!(
                "{leaves} leaves but {} live proxies",
                self.proxies.len()
            ));
        }
        // Node free list: exactly the nodes outside the tree.
        let mut free = 0usize;
        let mut i = self.free_node;
        while i != NULL {
            let iu = i as usize;
            if iu >= n_nodes {
                return Err(format!("free node {i} out of range"));
            }
            if seen[iu] {
                return Err(format!(
                    "free node {i} is in the tree or listed twice (cycle)"
                ));
            }
            seen[iu] = true;
            if self.nodes[iu].height != FREE {
                return Err(format!("node {i} in the free list is not marked free"));
            }
            free += 1;
            i = self.nodes[iu].parent;
        }
        if in_tree + free != n_nodes {
            return Err(format!(
                "{in_tree} nodes in the tree + {free} free != pool of {n_nodes}"
            ));
        }
        // Proxy table: its own invariants, and a leaf exactly for the live slots.
        self.proxies.validate()?;
        let slots = self.proxies.slots();
        for (k, p) in slots.iter().enumerate() {
            if p.live != (p.extra.node != NULL) {
                return Err(format!(
                    "slot {k}: live {} but leaf {}",
                    p.live, p.extra.node
                ));
            }
        }
        // Move buffer and pair set.
        let mut flagged = vec![false; slots.len()];
        for &s in &self.moved {
            let su = s as usize;
            if su >= slots.len() || flagged[su] || !slots[su].extra.moved {
                return Err(format!(
                    "move buffer entry {s} is out of range, repeated or unflagged"
                ));
            }
            flagged[su] = true;
        }
        if slots.iter().filter(|p| p.extra.moved).count() != self.moved.len() {
            return Err("a slot is flagged moved but not in the move buffer".into());
        }
        for w in self.pairs.windows(2) {
            if w[0] >= w[1] {
                return Err(format!("pair set not strictly sorted at {:?}", w));
            }
        }
        for &(a, b) in &self.pairs {
            if a >= b {
                return Err(format!("pair ({a:?}, {b:?}) not ordered"));
            }
            for id in [a, b] {
                if self.slot(id).is_none() && !slots[id.index as usize].extra.moved {
                    return Err(format!(
                        "pair names dead proxy {id:?} outside the move buffer"
                    ));
                }
            }
        }
        Ok(())
    }
}

impl DynamicBvh {
    /// A hash of the whole structure: the root, every pool node in index order (box bits,
    /// links, height) and every proxy slot's leaf and generation. Two trees with the same
    /// fingerprint have, barring hash collisions, the same nodes in the same order: the
    /// determinism tests compare it across thread counts.
    pub fn fingerprint(&self) -> u64 {
        // FNV-1a over 64-bit words: stable across platforms and builds.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |x: u64| {
            h ^= x;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        };
        eat(self.root as u64);
        for n in &self.nodes {
            for p in [n.aabb.min(), n.aabb.max()] {
                for k in 0..3 {
                    eat(p[k].to_bits() as u64);
                }
            }
            eat(((n.parent as u64) << 32) | n.child1 as u64);
            eat(((n.child2 as u64) << 32) | n.height as u64);
        }
        for p in self.proxies.slots() {
            eat(((p.extra.node as u64) << 32) | p.generation as u64);
        }
        h
    }
}
