# SPDX-License-Identifier: GPL-2.0-or-later
# Bash completion for pak, installed as share/bash-completion/completions/pak.

# The word as the shell will pass it: quotes and backslashes removed into _pak_dq. _pak_brk is
# how many of its leading characters readline does not replace: those up to the last unquoted
# '=' or ':' that is a word break, or up to a quote still open at the end.
_pak_dequote() {
  local s=$1 out='' q='' c i brk=0 qstart=0
  for ((i = 0; i < ${#s}; i++)); do
    c=${s:i:1}
    if [[ $q == "'" ]]; then
      if [[ $c == "'" ]]; then q=''; else out+=$c; fi
    elif [[ $q == '"' ]]; then
      if [[ $c == '"' ]]; then
        q=''
      elif [[ $c == "\\" && ${s:i+1:1} == [\"\\\$\`] ]]; then
        out+=${s:i+1:1}
        ((++i))
      else
        out+=$c
      fi
    else
      case $c in
        "'" | '"')
          q=$c
          qstart=${#out}
          ;;
        "\\")
          out+=${s:i+1:1}
          ((++i))
          ;;
        *)
          out+=$c
          if [[ ($c == '=' || $c == ':') && ${COMP_WORDBREAKS-} == *"$c"* ]]; then
            brk=${#out}
          fi
          ;;
      esac
    fi
  done
  [[ -n $q ]] && brk=$qstart
  _pak_dq=$out
  _pak_brk=$brk
}

# A word as a path the programs can open: dequoted, with a leading ~/ expanded.
_pak_path() {
  _pak_dequote "$1"
  case $_pak_dq in
    \~) _pak_dq=$HOME ;;
    \~/*) _pak_dq=$HOME/${_pak_dq#\~/} ;;
  esac
}

# Without bash-completion: the words of COMP_WORDS, with '=' and ':' joined back to the words
# they were split from (when no blank stands between them in COMP_LINE).
_pak_reassemble() {
  words=() cword=$COMP_CWORD
  if [[ -z ${COMP_LINE-} ]]; then
    words=("${COMP_WORDS[@]}")
    return
  fi
  local line=$COMP_LINE i j=-1 w gap
  for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
    w=${COMP_WORDS[i]}
    gap=''
    if [[ $line == [[:blank:]]* ]]; then
      gap=1
      line=${line#"${line%%[![:blank:]]*}"}
    fi
    line=${line#"$w"}
    if ((i >= 2)) && [[ -z $gap ]]; then
      words[j]+=$w
    else
      words[++j]=$w
    fi
    ((i == COMP_CWORD)) && cword=$j
  done
  return 0
}

# Candidates: paths on disk starting with the word. $1: pak (prefer *.pak and *.Pack.Gbx, any case, and
# folders), file, or dir.
_pak_files() {
  local kind=$1 f t
  local -a all=() kept=()
  if [[ $kind == dir ]]; then
    mapfile -t all < <(compgen -d -- "$_pak_dq")
  else
    mapfile -t all < <(compgen -f -- "$_pak_dq")
  fi
  if [[ $kind == pak ]]; then
    for f in "${all[@]}"; do
      t=$f
      [[ $t == \~/* ]] && t=$HOME/${t#\~/}
      if [[ -d $t || ${f,,} == *.pak || ${f,,} == *.pack.gbx ]]; then kept+=("$f"); fi
    done
    ((${#kept[@]})) && all=("${kept[@]}")
  fi
  cands+=("${all[@]}")
  filenames=1
}

# Candidates: the paths inside pak $1 that start with $2, one folder level at a time
# (Media/ before Media/Texture/a.gbx), each behind the leader $3. The key options on the
# command line are passed on to pak ls.
_pak_inside() {
  local pakfile=$1 prefix=$2 leader=$3 p rest c
  local -a list=() found=()
  local -A seen=()
  [[ -f $pakfile ]] || return 0
  mapfile -t list < <(timeout 5 "$prog" ls "${keyargs[@]}" -- "$pakfile" 2> /dev/null)
  for p in "${list[@]}"; do
    [[ -n $p && $p == "$prefix"* ]] || continue
    rest=${p:${#prefix}}
    if [[ $rest == */* ]]; then c=$prefix${rest%%/*}/; else c=$p; fi
    [[ -n ${seen[$c]-} ]] && continue
    seen[$c]=1
    found+=("$c")
  done
  if ((${#found[@]} == 0)) && [[ -n $prefix ]]; then
    # pak finds paths regardless of case: offer the pak's spelling when only one fits.
    for p in "${list[@]}"; do
      [[ -n $p && ${p,,} == "${prefix,,}"* ]] || continue
      rest=${p:${#prefix}}
      if [[ $rest == */* ]]; then c=${p:0:${#prefix}}${rest%%/*}/; else c=$p; fi
      [[ -n ${seen[$c]-} ]] && continue
      seen[$c]=1
      found+=("$c")
    done
    ((${#found[@]} == 1)) || found=()
  fi
  for c in "${found[@]}"; do
    cands+=("$leader$c")
    [[ $c == */ ]] && nospace=1
  done
  filenames=1
}

# Candidates: the words of $1 that start with the word.
_pak_words() {
  local w
  for w in $1; do
    [[ $w == "$_pak_dq"* ]] && cands+=("$w")
  done
  return 0
}

_pak() {
  # shellcheck disable=SC2034 # prev and split are set by _init_completion
  local cur prev words cword split
  if declare -F _init_completion > /dev/null; then
    _init_completion -n =: || return
  else
    _pak_reassemble
    cur=${words[cword]-}
  fi
  COMPREPLY=()

  local prog=${words[0]} _pak_dq _pak_brk filenames='' nospace='' i w
  local -a cands=()
  _pak_path "$prog"
  prog=$_pak_dq
  [[ $prog == */* ]] || prog=pak

  local keyopts='--key --key-file --packlist --base-key --ms-key --keys' help='-h --help --help-all'
  local subcommands='info ls cat extract pack commit check diff add rm mv packlist gbx'

  # The subcommand (and that of packlist and gbx) before the word being completed.
  local cmd='' at=0
  for ((i = 1; i < cword; i++)); do
    w=${words[i]}
    [[ $w == -* ]] && continue
    if [[ -z $cmd ]]; then
      cmd=$w at=$i
      [[ $cmd == packlist || $cmd == gbx ]] || break
    else
      cmd+=" $w" at=$i
      break
    fi
  done
  _pak_dequote "$cur"

  local flags='' argopts='' pos=''
  case $cmd in
    '')
      if [[ $cur == -* ]]; then
        _pak_words "$help --version"
      else
        _pak_words "$subcommands"
      fi
      ;;
    packlist | gbx)
      if [[ $cur == -* ]]; then
        _pak_words "$help"
      elif [[ $cmd == packlist ]]; then
        _pak_words 'ls add'
      else
        _pak_words 'info refs thumbnail'
      fi
      ;;
    info) flags='--json' argopts=$keyopts pos='pak' ;;
    ls) flags='-l --long --json --hashed-names --salvage' argopts="--names $keyopts" pos='pak inside...' ;;
    cat) flags='--unverified --hashed-names' argopts="--names $keyopts" pos='pak inside' ;;
    extract) flags='-q --quiet --unverified --overwrite --hashed-names --salvage' argopts="-j --jobs --names $keyopts" pos='pak dir inside...' ;;
    pack)
      flags='--fold-skippable -L --dereference -q --quiet --data-public'
      argopts="-j --jobs --level --raw --base --version --header-key --public --author-login --author-nick"
      argopts+=" --author-zone --comment --title-id $keyopts" pos='dir pak'
      ;;
    commit)
      flags='-n --dry-run --json --in-place -q --quiet --force --allow-empty --wait'
      # With --patch NAME: PACKSDIR OVERLAY [OUT] (the first a folder, see below).
      argopts="-j --jobs --level --patch $keyopts" pos='pak dir pak'
      ;;
    check) flags='--refs --json -q --quiet --strict --hashed-names --salvage' argopts="--names $keyopts" pos='pak' ;;
    diff)
      flags='--json --fields -q --quiet --hashed-names'
      argopts="--names $keyopts --key-b --key-file-b --packlist-b --base-key-b --ms-key-b"
      pos='pak pak'
      ;;
    add | rm | mv)
      flags='-n --dry-run --json -q --quiet --wait'
      argopts="-o --out -j --jobs --level $keyopts"
      [[ $cmd == add ]] && argopts+=' --as'
      pos='pak inside...'
      [[ $cmd == add ]] && pos='pak file...'
      ;;
    'packlist ls') pos='file' ;;
    'packlist add') flags='--replace' argopts='--key-string' pos='file name' ;;
    'gbx info') flags='--nodes --json' argopts=$keyopts pos='gbx' ;;
    'gbx refs') flags='--json --strict' argopts="--packs $keyopts" pos='gbx' ;;
    'gbx thumbnail') flags='--as-stored' argopts="-o --output --size $keyopts" pos='gbx' ;;
    *) return 0 ;;
  esac

  if [[ -n $pos ]]; then
    # Walk the subcommand's words: options and their values, the key options for pak ls, and
    # the positionals; find what the word being completed is.
    local role='' expect='' ddash='' raw='' refs='' patch='' opt val n
    local -a keyargs=() posw=()
    n=${#words[@]}
    ((n > cword)) || n=$((cword + 1))
    for ((i = at + 1; i < n; i++)); do
      w=${words[i]}
      ((i == cword)) && w=$cur
      opt='' val=''
      if [[ -n $expect ]]; then
        opt=$expect val=$w expect=''
        ((i == cword)) && role=value:$opt
      elif [[ -z $ddash && $w == -* ]]; then
        raw=''
        case $w in
          --) ddash=1 ;;
          --*=*) opt=${w%%=*} val=${w#*=} ;;
          --*) [[ " $argopts " == *" $w "* ]] && expect=$w ;;
          -o) [[ " $argopts " == *' -o '* ]] && expect=-o ;;
          *) [[ $w == -*j && " $argopts " == *' -j '* ]] && expect=-j ;;
        esac
        [[ $w == --refs ]] && refs=1
        [[ $w == --patch || $w == --patch=* ]] && patch=1
        if ((i == cword)); then
          role=option expect=''
        fi
      elif [[ -n $raw ]]; then
        ((i == cword)) && role=value:--raw
      else
        if ((i == cword)); then
          role=pos:${#posw[@]}
        else
          _pak_path "$w"
          posw+=("$_pak_dq")
        fi
      fi
      if [[ -n $opt && $i != "$cword" ]]; then
        case $opt in
          --key | --base-key | --ms-key) keyargs+=("$opt" "$val") ;;
          --key-file | --packlist | --keys)
            _pak_path "$val"
            keyargs+=("$opt" "$_pak_dq")
            ;;
        esac
      fi
      [[ $opt == --raw || $expect == --raw ]] && raw=1
    done

    local -a spec
    read -r -a spec <<< "$pos"
    local lead=''
    if [[ $role == option && $cur == --*=* ]]; then
      lead=${cur%%=*}=
      role=value:${lead%=}
      [[ " $argopts " == *" ${role#value:} "* ]] || role=''
      _pak_dequote "${cur#*=}"
      _pak_brk=$((_pak_brk + ${#lead}))
    else
      _pak_dequote "$cur"
    fi
    local what=''
    case $role in
      option) _pak_words "$help $flags $argopts" ;;
      value:--key-file | value:--packlist | value:--keys | value:--base | value:--names) what='file' ;;
      value:--key-file-b | value:--packlist-b) what='file' ;;
      value:--packs) what='dir' ;;
      value:--level) what='level' ;;
      value:-j | value:--jobs) what='jobs' ;;
      value:-o | value:--output) what='file' ;;
      pos:*)
        n=${role#pos:}
        if ((n < ${#spec[@]})); then
          what=${spec[n]}
        elif [[ ${spec[-1]} == *... ]]; then
          what=${spec[-1]}
        else
          [[ -z $_pak_dq ]] && _pak_words "$help $flags $argopts"
        fi
        what=${what%...}
        [[ $cmd == check && $what == pak && -n $refs ]] && what=dir
        [[ $cmd == commit && $n == 0 && -n $patch ]] && what=dir
        ;;
    esac

    case $what in
      file | dir | pak)
        cands=()
        _pak_files "$what"
        ;;
      level) _pak_words '0 1 2 3 4 5 6 7 8 9' ;;
      jobs)
        local cores
        cores=$(nproc 2> /dev/null) || cores=8
        for ((i = 1; i <= cores; i++)); do
          [[ $i == "$_pak_dq"* ]] && cands+=("$i")
        done
        ;;
      inside) ((${#posw[@]})) && _pak_inside "${posw[0]}" "$_pak_dq" '' ;;
      gbx)
        # A gbx file on disk, or PAK:PATH for one inside a pak.
        local pakpart=${_pak_dq%%:*} inner=${_pak_dq#*:}
        if [[ $_pak_dq == *:* && ${pakpart,,} == *.pak ]]; then
          _pak_path "$pakpart"
          _pak_inside "$_pak_dq" "$inner" "$pakpart:"
          _pak_dequote "$cur"
        else
          _pak_files file
        fi
        ;;
    esac
    if [[ -n $lead ]]; then
      for ((i = 0; i < ${#cands[@]}; i++)); do
        cands[i]=$lead${cands[i]}
      done
    fi
  fi

  for w in "${cands[@]}"; do
    COMPREPLY+=("${w:_pak_brk}")
  done
  if [[ -n $filenames ]]; then
    compopt -o filenames 2> /dev/null
  fi
  if [[ -n $nospace ]]; then
    compopt -o nospace 2> /dev/null
  fi
  return 0
}

complete -F _pak pak
