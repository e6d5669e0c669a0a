;;; emacs_test.el --- batch test of the GDL eglot setup in docs/editors.md  -*- lexical-binding: t -*-
;; Run by emacs_test.sh.
(require 'package)
(package-initialize)
(require 'cl-lib)

(defvar gdl-test-passed 0)
(defvar gdl-test-failed 0)

(defun gdl-test-out (s) (princ (concat s "\n")))

(defun gdl-test-check (name ok &optional detail)
  (if ok
      (progn (setq gdl-test-passed (1+ gdl-test-passed)) (gdl-test-out (concat "ok - " name)))
    (setq gdl-test-failed (1+ gdl-test-failed))
    (gdl-test-out (format "not ok - %s%s" name (if detail (format ": %s" detail) "")))))

(defun gdl-test-finish ()
  (gdl-test-out (format "emacs: %d passed, %d failed" gdl-test-passed gdl-test-failed))
  (kill-emacs (if (zerop gdl-test-failed) 0 1)))

(defun gdl-test-wait (seconds pred)
  "Lets the server talk until PRED is non-nil or SECONDS pass; returns PRED's value."
  (let ((end (+ (float-time) seconds)) (v nil))
    (while (and (not (setq v (funcall pred))) (< (float-time) end))
      (accept-process-output nil 0.1))
    v))

(defun gdl-test-line-of (needle)
  (save-excursion (goto-char (point-min)) (search-forward needle) (line-number-at-pos (match-beginning 0))))

(condition-case err
    (progn
      (setq gdl-server-command (list (getenv "GDL_BIN") "lsp"))
      (load-file (getenv "GDL_SETUP"))
      (gdl-test-check "the documented setup loads" t))
  (error (gdl-test-check "the documented setup loads" nil (error-message-string err)) (gdl-test-finish)))

(let ((project (getenv "GDL_PROJECT")))
  (find-file (expand-file-name "ontology.kif" project))
  (gdl-test-check "a SUO-KIF .kif file is not in gdl-mode" (not (eq major-mode 'gdl-mode)) major-mode)
  (find-file (expand-file-name "tictactoe.kif" project)))
(gdl-test-check "the game is in gdl-mode" (eq major-mode 'gdl-mode) major-mode)

;; eglot-ensure waits for the command loop, which batch mode never runs: start eglot directly.
(condition-case err
    (apply #'eglot (eglot--guess-contact))
  (error (gdl-test-check "eglot starts gdl lsp" nil (error-message-string err)) (gdl-test-finish)))
(gdl-test-check "eglot starts gdl lsp" (gdl-test-wait 10 (lambda () (eglot-current-server))))
(unless (eglot-current-server) (gdl-test-finish))

;; The deliberate error: ?w in (threat ?p ?w) is never bound.
(let* ((bad (gdl-test-line-of "(<= (threat ?p ?w)"))
       (found (gdl-test-wait
               15 (lambda ()
                    (flymake-start)
                    (cl-find-if (lambda (d)
                                  (and (memq (line-number-at-pos (flymake-diagnostic-beg d)) (list bad (1+ bad)))
                                       (eq (flymake-diagnostic-type d) 'eglot-error)))
                                (flymake-diagnostics))))))
  (gdl-test-check (format "Flymake shows an error on the deliberate mistake (line %d)" bad) found
                  (mapcar (lambda (d) (format "%d:%s" (line-number-at-pos (flymake-diagnostic-beg d))
                                              (flymake-diagnostic-text d)))
                          (flymake-diagnostics))))

;; Hover on the relation "line" in (<= (line ?x) (row ?m ?x)).
(goto-char (point-min))
(search-forward "(<= (line ?x) (row")
(goto-char (+ (match-beginning 0) 6))
(let* ((hover (condition-case err
                  (jsonrpc-request (eglot--current-server-or-lose) :textDocument/hover
                                   (eglot--TextDocumentPositionParams))
                (error (format "error: %s" (error-message-string err)))))
       (contents (and (listp hover) (plist-get hover :contents)))
       (text (cond ((stringp contents) contents)
                   ((listp contents) (or (plist-get contents :value) (format "%S" contents)))
                   (t (format "%S" hover)))))
  (gdl-test-check "hover on a relation shows its summary"
                  (and (stringp text) (string-match-p "line/1" text) (string-match-p "Three marks" text))
                  text))

;; The state commands print the board: a move shows the 3x3 board drawn in ASCII in *gdl state*.
(jsonrpc-request (eglot--current-server-or-lose) :workspace/executeCommand
                 (list :command "gdl.playMove"
                       :arguments (vector (append (eglot--TextDocumentIdentifier) (list :moves ["(mark 1 1)" "noop"])))))
(let ((state (gdl-show-state))
      (text (with-current-buffer "*gdl state*" (buffer-string))))
  (gdl-test-check "gdl-show-state shows the board drawn in ASCII"
                  (and (string-match-p "cell (3 rows, 3 columns)" text) (string-match-p "^1 x \\. \\.$" text)
                       (equal (plist-get state :step) 1))
                  text))
(gdl-computer-move)
(let ((text (with-current-buffer "*gdl state*" (buffer-string))))
  (gdl-test-check "gdl-computer-move plays oplayer's move" (and (string-match-p "; step 2" text) (string-match-p " o" text)) text))
(gdl-reset-state)

;; Infix GDL: a .kif file written in infix and a .hrf file are in gdl-infix-mode, served by gdl lsp.
(find-file (expand-file-name "infix_content.kif" (getenv "GDL_PROJECT")))
(gdl-test-check "a .kif file written in infix is in gdl-infix-mode" (eq major-mode 'gdl-infix-mode) major-mode)
(find-file (expand-file-name "tictactoe.hrf" (getenv "GDL_PROJECT")))
(gdl-test-check "a .hrf file is in gdl-infix-mode" (eq major-mode 'gdl-infix-mode) major-mode)
(condition-case err
    (apply #'eglot (eglot--guess-contact))
  (error (gdl-test-check "eglot starts gdl lsp for the .hrf file" nil (error-message-string err))))
(gdl-test-check "eglot manages the .hrf file" (gdl-test-wait 10 (lambda () (eglot-current-server))))
(when (eglot-current-server)
  (let* ((bad (gdl-test-line-of "threat(P,W) :-"))
         (found (gdl-test-wait
                 15 (lambda ()
                      (flymake-start)
                      (cl-find-if (lambda (d)
                                    (and (= (line-number-at-pos (flymake-diagnostic-beg d)) bad)
                                         (eq (flymake-diagnostic-type d) 'eglot-error)
                                         (string-match-p "unsafe variable W" (flymake-diagnostic-text d))))
                                  (flymake-diagnostics))))))
    (gdl-test-check (format "Flymake shows the infix game's error in infix (line %d)" bad) found
                    (mapcar (lambda (d) (format "%d:%s" (line-number-at-pos (flymake-diagnostic-beg d))
                                                (flymake-diagnostic-text d)))
                            (flymake-diagnostics))))
  (goto-char (point-min))
  (search-forward "line(X) :- row(M,X)")
  (goto-char (1+ (match-beginning 0)))
  (let* ((hover (jsonrpc-request (eglot--current-server-or-lose) :textDocument/hover
                                 (eglot--TextDocumentPositionParams)))
         (contents (plist-get hover :contents))
         (text (if (stringp contents) contents (plist-get contents :value))))
    (gdl-test-check "hover on an infix relation shows its summary"
                    (and (stringp text) (string-match-p "line/1" text) (string-match-p "Three marks" text)) text))
  (jsonrpc-request (eglot--current-server-or-lose) :workspace/executeCommand
                   (list :command "gdl.playMove"
                         :arguments (vector (append (eglot--TextDocumentIdentifier) (list :moves ["mark(1,1)" "noop"])))))
  (let ((text (progn (gdl-show-state) (with-current-buffer "*gdl state*" (buffer-string)))))
    (gdl-test-check "gdl-show-state plays an infix move: the board drawn, the moves in infix"
                    (and (string-match-p "^1 x \\. \\.$" text) (string-match-p "legal mark(1,2)" text)) text))
  (gdl-reset-state))

;; A game test file (docs/testing.md): in gdl-mode by its name, its failing step shown by Flymake
;; (the server's background run), and gdl-run-tests runs its tests.
(find-file (expand-file-name "tictactoe.test.kif" (getenv "GDL_PROJECT")))
(gdl-test-check "a game test file is in gdl-mode" (eq major-mode 'gdl-mode) major-mode)
(condition-case err
    (apply #'eglot (eglot--guess-contact))
  (error (gdl-test-check "eglot starts gdl lsp for the test file" nil (error-message-string err))))
(gdl-test-check "eglot manages the test file" (gdl-test-wait 10 (lambda () (eglot-current-server))))
(when (eglot-current-server)
  (let* ((step (gdl-test-line-of "(play (mark 2 2) noop)\n    terminal"))
         (found (gdl-test-wait
                 20 (lambda ()
                      (flymake-start)
                      (cl-find-if (lambda (d)
                                    (and (= (line-number-at-pos (flymake-diagnostic-beg d)) (1+ step))
                                         (string-match-p "test wrong-on-purpose: expected the state is terminal"
                                                         (flymake-diagnostic-text d))))
                                  (flymake-diagnostics))))))
    (gdl-test-check (format "Flymake shows the failing step of the test file (line %d)" (1+ step)) found
                    (mapcar (lambda (d) (format "%d:%s" (line-number-at-pos (flymake-diagnostic-beg d))
                                                (flymake-diagnostic-text d)))
                            (flymake-diagnostics))))
  (let* ((run (gdl-run-tests))
         (results (append (plist-get run :results) nil)))
    (gdl-test-check "gdl-run-tests runs the file's three tests, one failing"
                    (and (= (length results) 3)
                         (equal (mapcar (lambda (r) (plist-get r :status)) results) '("passed" "passed" "failed")))
                    run)))

(gdl-test-finish)
