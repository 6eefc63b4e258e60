# SPDX-License-Identifier: GPL-2.0-or-later
# Bash completion for pakfs, installed as share/bash-completion/completions/pakfs: its options,
# the names of its -o options (and a folder after -o overlay=, a file after key_file=, keys=,
# packlist= and names=), pak files and folders for SOURCE and MOUNTPOINT.

# The words of the command line up to the cursor, with the pieces readline split off at '=' and
# ':' joined back to their word (no blank stands between them in COMP_LINE): _pakfs_words, and
# the index of the word being completed, _pakfs_cword.
_pakfs_join() {
  _pakfs_words=() _pakfs_cword=0
  local line=${COMP_LINE-} i j=-1 w glued
  if [[ -z $line ]]; then
    _pakfs_words=("${COMP_WORDS[@]}")
    _pakfs_cword=$COMP_CWORD
    return
  fi
  for ((i = 0; i <= COMP_CWORD && i < ${#COMP_WORDS[@]}; i++)); do
    w=${COMP_WORDS[i]}
    glued=1
    if [[ $line == [[:blank:]]* ]]; then
      glued=''
      line=${line#"${line%%[![:blank:]]*}"}
    fi
    line=${line#"$w"}
    if ((i > 0)) && [[ -n $glued ]]; then
      _pakfs_words[j]+=$w
    else
      _pakfs_words[++j]=$w
    fi
  done
  ((COMP_CWORD < ${#COMP_WORDS[@]})) || _pakfs_words[++j]=''
  _pakfs_cword=$j
}

# Adds to COMPREPLY the candidates $2... for the word $1, each without the part of the word
# readline keeps (up to its last '=' or ':' that is a word break).
_pakfs_reply() {
  local word=$1 keep=0 i c
  shift
  for ((i = 0; i < ${#word}; i++)); do
    c=${word:i:1}
    [[ ($c == '=' || $c == ':') && ${COMP_WORDBREAKS-} == *"$c"* ]] && keep=$((i + 1))
  done
  for c in "$@"; do
    [[ $c == "$word"* ]] && COMPREPLY+=("${c:keep}")
  done
  return 0
}

# Paths starting with $1 (dir: folders only; pak: folders and .pak / .Pack.Gbx files; file:
# any), each behind the leader $2, into _pakfs_cands; readline then treats the replies as file
# names (quoting them, a slash after a folder).
_pakfs_paths() {
  local prefix=$1 leader=$2 kind=$3 p t
  local -a found=()
  if [[ $kind == dir ]]; then
    mapfile -t found < <(compgen -d -- "$prefix")
  else
    mapfile -t found < <(compgen -f -- "$prefix")
  fi
  _pakfs_cands=()
  filenames=1
  for p in "${found[@]}"; do
    t=$p
    [[ $t == \~/* ]] && t=$HOME/${t#\~/}
    if [[ $kind == pak && ! -d $t && ${p,,} != *.pak && ${p,,} != *.pack.gbx ]]; then
      continue
    fi
    _pakfs_cands+=("$leader$p")
  done
}

_pakfs() {
  COMPREPLY=()
  local _pakfs_words _pakfs_cword
  local -a _pakfs_cands=()
  _pakfs_join
  local cur=${_pakfs_words[_pakfs_cword]-} prev=''
  ((_pakfs_cword > 0)) && prev=${_pakfs_words[_pakfs_cword - 1]}
  local nospace='' filenames=''

  case $prev in
    --overlay)
      _pakfs_paths "$cur" '' dir
      _pakfs_reply "$cur" "${_pakfs_cands[@]}"
      ;;
    --key-file | --packlist | --keys)
      _pakfs_paths "$cur" '' file
      _pakfs_reply "$cur" "${_pakfs_cands[@]}"
      ;;
    --key | --base-key | --ms-key) ;;
    -o)
      # A comma-separated list: complete its last item.
      local head='' item=$cur
      if [[ $cur == *,* ]]; then
        head=${cur%,*},
        item=${cur##*,}
      fi
      case $item in
        overlay=*)
          _pakfs_paths "${item#*=}" "${head}overlay=" dir
          _pakfs_reply "$cur" "${_pakfs_cands[@]}"
          ;;
        key_file=* | packlist=* | names=* | keys=*)
          _pakfs_paths "${item#*=}" "$head${item%%=*}=" file
          _pakfs_reply "$cur" "${_pakfs_cands[@]}"
          ;;
        *=*) ;;
        *)
          local o
          local -a names=()
          for o in key= key_file= packlist= base_key= ms_key= keys= names= overlay= cache_size= \
            read_ahead= icase drives unverified salvage hashed_names commit nonempty uid= gid= umask= ro rw \
            allow_other allow_root auto_unmount clone_fd max_threads= max_idle_threads= \
            nosuid nodev noexec defaults noauto nofail debug; do
            names+=("$head$o")
          done
          _pakfs_reply "$cur" "${names[@]}"
          [[ ${COMPREPLY[*]} == *=* ]] && nospace=1
          ;;
      esac
      ;;
    *)
      if [[ $cur == --overlay=* ]]; then
        _pakfs_paths "${cur#*=}" --overlay= dir
        _pakfs_reply "$cur" "${_pakfs_cands[@]}"
      elif [[ $cur == --key-file=* || $cur == --packlist=* || $cur == --keys=* ]]; then
        _pakfs_paths "${cur#*=}" "${cur%%=*}=" file
        _pakfs_reply "$cur" "${_pakfs_cands[@]}"
      elif [[ $cur == -* ]]; then
        _pakfs_reply "$cur" --key --key-file --packlist --base-key --ms-key --keys --overlay -o -f -d \
          -s -h --help -V --version
      else
        # SOURCE (a pak or a Packs folder) or MOUNTPOINT (a folder).
        _pakfs_paths "$cur" '' pak
        _pakfs_reply "$cur" "${_pakfs_cands[@]}"
      fi
      ;;
  esac
  [[ -n $filenames ]] && compopt -o filenames 2> /dev/null
  [[ -n $nospace ]] && compopt -o nospace 2> /dev/null
  return 0
}

complete -F _pakfs pakfs
