"""Sequential decisions that keep their level under optional stopping (issue 16, item 7).

A run that is resumed, extended with more trials, or stopped once its answer is clear looks at
its data many times; a fixed-n interval loses its level under such looks. The modules of this
package give anytime-valid confidence sequences instead (docs, The decision rules, Sequential decisions):
:mod:`verification.sequential.betting` holds the betting construction of Waudby-Smith & Ramdas
(JRSS-B, 2023) for the mean of a variable with an a-priori range.
"""
