#ifndef CTOML_SHELL_H
#define CTOML_SHELL_H

#ifdef __cplusplus
extern "C" {
#endif

/// Gives back the storage of a `toml::table` that CTOML's `tableCreateFromString` made with
/// `new` and that `tableClear` has emptied (TOMLKit 0.6.0's bridge has no function that deletes
/// one: ~112 bytes per parse were kept). Only for such a table: with its map empty and no source
/// path (a document parsed from a string has none), its destructor would free nothing, so the
/// storage is released with the `operator delete` that matches its `new`.
void ctoml_shell_release_cleared_table(void *table);

#ifdef __cplusplus
}
#endif

#endif
