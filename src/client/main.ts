// Progressive enhancement entry; see docs/markup-contract.md.
